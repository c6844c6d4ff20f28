"""Boneyard's wire protocol v1: typed messages, msgpack framing, the published spec."""
