// A web worker for the site opened from its folder (added by docsite/offline.py).
//
// Opened from file://, the browser refuses to start a worker (the page has no
// origin to share with it), and Material's search runs in one. This script,
// loaded before Material's, gives such a page a Worker that runs the worker's
// script in a hidden frame of the page instead: the script is loaded as a
// classic script (which file:// allows), its postMessage answers the page, and
// the page's messages reach its "message" listeners. Served over http(s) it
// does nothing: the browser's own workers run.
(function () {
  "use strict";

  if (location.protocol !== "file:" || typeof window.EventTarget !== "function") return;

  class FrameWorker extends EventTarget {
    constructor(url) {
      super();
      this.onmessage = null;
      this.onerror = null;
      this.waiting = []; // the page's messages sent before the script is loaded
      this.frame = document.createElement("iframe");
      this.frame.hidden = true;
      this.frame.tabIndex = -1;
      this.frame.setAttribute("aria-hidden", "true");
      (document.body || document.documentElement).appendChild(this.frame);
      const scope = this.frame.contentWindow;
      this.scope = scope;
      scope.postMessage = (data) => {
        window.setTimeout(() => this.deliver("message", data), 0);
      };
      const script = scope.document.createElement("script");
      script.onload = () => {
        const waiting = this.waiting;
        this.waiting = null;
        waiting.forEach((data) => this.postMessage(data));
      };
      script.onerror = () => this.deliver("error", null);
      script.src = new URL(String(url), document.baseURI).href;
      scope.document.head.appendChild(script);
    }

    deliver(type, data) {
      const event = type === "message" ? new MessageEvent(type, { data: data }) : new Event(type);
      const handler = type === "message" ? this.onmessage : this.onerror;
      if (typeof handler === "function") handler.call(this, event);
      this.dispatchEvent(event);
    }

    postMessage(data) {
      if (this.waiting) {
        this.waiting.push(data);
        return;
      }
      const scope = this.scope;
      window.setTimeout(() => scope.dispatchEvent(new scope.MessageEvent("message", { data: data })), 0);
    }

    terminate() {
      this.frame.remove();
    }
  }

  window.Worker = FrameWorker;
})();
