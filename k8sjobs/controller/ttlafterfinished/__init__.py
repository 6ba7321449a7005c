"""The ttl-after-finished controller (mirrors pkg/controller/ttlafterfinished)."""
