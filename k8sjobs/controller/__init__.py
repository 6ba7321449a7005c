"""The Job controller, mirroring upstream ``pkg/controller/job`` file for file.

It sees the world only through informer listers, a pod-control interface, a job
client and the injected clock; it never imports the cluster or simulation layers.
"""
