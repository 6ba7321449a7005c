"""Settings for every test under tests/.

Hypothesis: property tests check behaviour, never speed (timing goals live in benchmarks/), so
no example has a deadline and slow data generation is not a failure. With hypothesis' defaults
(200 ms per example, the too_slow health check) a loaded CI machine failed a property test that
passes alone (test_the_deletion_order_is_transitive, under load average 15-25 on 2 cores).
"""

from __future__ import annotations

from hypothesis import HealthCheck, settings

settings.register_profile("k8sjobs", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("k8sjobs")
