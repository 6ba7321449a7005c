// k8sjobs-lite: a JupyterLab extension of the JupyterLite site (tools/lite.py writes it into the
// site as extensions/k8sjobs-lite/, a federated extension written by hand: no build step, no
// dependency but what JupyterLite shares with its extensions at run time).
//
// 1. The lesson's kernel starts while JupyterLab loads. A page opened on a lesson's link
//    (lab/index.html?path=en/03-work-queue.ipynb) starts that notebook's session as soon as the
//    kernel's plugin and the service worker are ready, about a second after the page starts,
//    instead of after the notebook has been fetched and drawn (2-3 s): the Pyodide worker boots
//    on the second core while the main thread builds the app. The notebook then finds its
//    session by its path and connects to it, as it does to a running kernel. Nothing starts if
//    the notebook is already open or has a session, if the service worker is not ready (the
//    kernel could not reach the site's files), or if the path is not one of the site's notebooks.
// 2. JupyterLite's record of its service worker's version. JupyterLite writes it only on a page
//    that a service worker already controlled: a learner's first page never does, so the next
//    page unregisters the service worker and registers it again, and that sometimes stalls
//    until the page is left, its kernel then started without the site's files. The record is
//    written as soon as the service worker is ready, if JupyterLite has not written it.
//
// What happened is in window.k8sjobsLite (read by tests/lite and benchmarks/bench_lite.py):
// {earlyKernel: "started" | "skipped: <why>" | "failed: <error>", startedAt, readyAt (ms since
// the page started), versionRecorded}.
var _JUPYTERLAB;
(function () {
  "use strict";
  var NOTEBOOKS = __NOTEBOOKS__;      // the site's notebooks, "<lang>/<file>.ipynb"
  var APP_VERSION = __APP_VERSION__;  // the site's appVersion, as JupyterLite records it
  var KERNEL_PLUGIN = "@jupyterlite/pyodide-kernel-extension:kernel";
  var WORKER_PLUGIN = "@jupyterlite/application-extension:service-worker-manager";
  var POLL_MS = 25;
  var POLL_LIMIT = 400;  // 10 s: the plugins start in about one
  var scope = {};
  var state = { earlyKernel: "waiting" };

  function skip(why) {
    var error = new Error(why);
    error.skip = true;
    return error;
  }

  // A module JupyterLite shares with its extensions (the same instance the app uses, so its
  // tokens are the app's).
  function shared(name) {
    var versions = scope[name] || {};
    var keys = Object.keys(versions);
    if (!keys.length) return Promise.resolve(null);
    return Promise.resolve(versions[keys[0]].get()).then(function (factory) { return factory(); });
  }

  // Resolves once every named plugin has started (or is not in the app); it never starts one
  // early itself: activating the kernel's plugin ahead of its turn left the service worker's
  // registration stalled.
  function pluginsStarted(app, ids) {
    return new Promise(function (resolve, reject) {
      var polls = 0;
      (function poll() {
        var pending = ids.filter(function (id) { return app.hasPlugin(id) && !app.isPluginActivated(id); });
        if (!pending.length) return resolve();
        if (++polls > POLL_LIMIT) return reject(skip("plugins not started: " + pending.join(", ")));
        setTimeout(poll, POLL_MS);
      })();
    });
  }

  function notebookOpen(app, path) {
    var widgets = app.shell && app.shell.widgets ? Array.from(app.shell.widgets("main")) : [];
    return widgets.some(function (w) { return w.context && w.context.path === path; });
  }

  function recordVersion(registration) {
    var script = registration && registration.active && registration.active.scriptURL;
    if (!script || !APP_VERSION) return false;
    var key = script + "-version";
    if (window.localStorage.getItem(key)) return false;
    window.localStorage.setItem(key, APP_VERSION);
    return true;
  }

  function startEarly(app, path, workers) {
    var services = app.serviceManager;
    var sessions = services.sessions;
    var specs = services.kernelspecs;
    return Promise.all([sessions.ready, specs.ready, pluginsStarted(app, [KERNEL_PLUGIN])])  // the worker's plugin has started (activate)
      .then(function () {
        if (!workers) throw skip("no service worker manager");
        return workers.ready.catch(function () { throw skip("the service worker did not register"); });
      })
      .then(function () { return navigator.serviceWorker.ready; })
      .then(function (registration) {
        state.versionRecorded = recordVersion(registration);
        if (path === null) throw skip("no notebook in the address");
        if (!navigator.serviceWorker.controller) throw skip("no service worker controls the page yet");
        if (notebookOpen(app, path)) throw skip("the notebook opened first");
        return sessions.refreshRunning();
      })
      .then(function () {
        var running = Array.from(sessions.running()).some(function (s) { return s.path === path; });
        if (running || notebookOpen(app, path)) throw skip("the notebook has its session");
        var kernel = (specs.specs && specs.specs.default) || "python";
        state.startedAt = Math.round(performance.now());
        // handleComms: false, or the notebook's own connection would not handle comms (JupyterLab
        // gives them to the first connection to a kernel) and no widget would show.
        return sessions.startNew({ path: path, type: "notebook", name: path.split("/").pop(), kernel: { name: kernel } },
                                 { kernelConnectionOptions: { handleComms: false } });
      })
      .then(function (session) {
        state.earlyKernel = "started";
        // Our connection only waits for the kernel's first answer; the notebook keeps its own.
        return session.kernel.info.then(
          function () { state.readyAt = Math.round(performance.now()); session.dispose(); },
          function () { session.dispose(); });
      });
  }

  function plugin(apputils) {
    var workerToken = apputils && apputils.IServiceWorkerManager;
    return {
      id: "k8sjobs-lite:early-kernel",
      description: "Starts the kernel of the notebook in the page's address while JupyterLab loads.",
      autoStart: true,
      activate: function (app) {
        window.k8sjobsLite = state;
        var path = new URLSearchParams(window.location.search).get("path");
        if (path !== null && NOTEBOOKS.indexOf(path) < 0) path = null;
        var workers = pluginsStarted(app, [WORKER_PLUGIN]).then(function () {
          return workerToken && app.hasPlugin(WORKER_PLUGIN) ? app.resolveOptionalService(workerToken) : null;
        });
        workers.then(function (w) { return startEarly(app, path, w); }).catch(function (error) {
          state.earlyKernel = error && error.skip ? "skipped: " + error.message : "failed: " + String(error);
        });
      }
    };
  }

  var modules = {
    "./extension": function () {
      return shared("@jupyterlite/apputils").catch(function () { return null; }).then(function (apputils) {
        var plugins = [plugin(apputils)];
        return function () { return { __esModule: true, default: plugins }; };
      });
    }
  };
  _JUPYTERLAB = _JUPYTERLAB === undefined ? {} : _JUPYTERLAB;
  _JUPYTERLAB["k8sjobs-lite"] = {
    get: function (name) {
      return modules[name] ? modules[name]() : Promise.reject(new Error("k8sjobs-lite has no module " + name));
    },
    init: function (shareScope) { scope = shareScope || {}; }
  };
})();
