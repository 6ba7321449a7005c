"""The CronJob controller, one module per upstream file of pkg/controller/cronjob (Kubernetes 1.35).

* :mod:`.cronjob_controllerv2`: ``cronjob_controllerv2.go``, the controller (:class:`CronJobController`);
* :mod:`.utils`: ``utils.go``, schedule arithmetic, the Job built from the template, the history order;
* :mod:`.injection`: ``injection.go``, the Job and CronJob API seams and upstream's test fakes.
"""

from .cronjob_controllerv2 import CronJobController, CronJobSyncResult
from .injection import FakeCronJobControl, FakeJobControl, StoreCronJobControl, StoreJobControl

__all__ = ["CronJobController", "CronJobSyncResult", "FakeCronJobControl", "FakeJobControl",
           "StoreCronJobControl", "StoreJobControl"]
