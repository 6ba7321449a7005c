"""The controllers, laid out as upstream's ``pkg/controller`` (Kubernetes 1.35).

* ``job/``: the Job controller, file for file after ``pkg/controller/job``;
* ``ttlafterfinished/``: ``pkg/controller/ttlafterfinished``;
* ``controller_utils.py``: ``pkg/controller/controller_utils.go`` (keys, expectations, pod
  control, the deletion order), shared by every controller;
* ``pod_util.py``: the pod predicates (``pkg/api/v1/pod`` and ``pkg/controller``), a leaf;
* ``workqueue.py``: client-go's rate-limited work queue.

The controllers see the world only through informer listers, a pod-control interface, a job
client and the injected clock; they never import the cluster or simulation layers.
"""
