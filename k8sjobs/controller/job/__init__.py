"""The Job controller, mirroring upstream ``pkg/controller/job`` file for file (Kubernetes 1.35).

``job_controller.py``, ``backoff_utils.py``, ``indexed_job_utils.py``, ``pod_failure_policy.py``,
``success_policy.py``, ``tracking_utils.py`` and ``util/utils.py`` each mirror the Go file of the
same name. What upstream keeps outside ``pkg/controller/job`` stays outside this package:
:mod:`k8sjobs.controller.controller_utils` (pkg/controller/controller_utils.go),
:mod:`k8sjobs.controller.pod_util` (the pod predicates), :mod:`k8sjobs.controller.workqueue`
(client-go's work queue).
"""
