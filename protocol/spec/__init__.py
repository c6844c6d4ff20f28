"""The published spec: PROTOCOL.md, schema.json and asyncapi.yaml, generated from the models.

``python -m boneyard.protocol.spec`` regenerates them; see :mod:`boneyard.protocol.spec.gen`.
"""
