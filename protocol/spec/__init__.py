"""The published spec: PROTOCOL.md, schema.json and asyncapi.yaml, generated from the models.

``python -m protocol.spec`` regenerates them; see :mod:`protocol.spec.gen`.
"""
