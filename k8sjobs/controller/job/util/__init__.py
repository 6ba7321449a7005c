"""Job helpers other controllers use (mirrors pkg/controller/job/util)."""
