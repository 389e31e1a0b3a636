"""A plotly ``FigureWidget`` whose browser side is ready at once, however busy the machine (issue 37 item 1).

plotly (6 and 7) ships its widget's browser code as one 5 MB ES module that anywidget loads for every
figure on the page.  anywidget (since 0.9.17) gives a model 2 seconds to load and initialise its
module; if the module is slower, the model drops every message the kernel sends it afterwards.  A
figure's traces come in such a message (plotly opens the widget with empty data and sends the data
next), so a slow load leaves a blank board that no later update can fix.  On a busy machine the
module's evaluation alone took 3.5 to 6 s in Debian's chromium, and whether the 2 s timer fired
first was a race: 4 of 9 table renders were blank.

:class:`FigureWidget` sends the same plotly module, but as a plain trait, and gives anywidget a small
module in its place: it initialises in milliseconds, loads plotly's module once per page (later
figures reuse it), keeps the kernel's messages that arrive in the meantime and hands them to plotly's
own model code once it is there.  Nothing else changes: it is a ``plotly.graph_objects.FigureWidget``.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import plotly.graph_objects as go
import traitlets
from plotly.basewidget import BaseFigureWidget

__all__ = ["FigureWidget", "LOADER_ESM"]

#: plotly's own widget module (the anywidget contract: a default export, a factory or an object with
#: ``initialize`` and ``render``).
_PLOTLY_ESM = (BaseFigureWidget._esm.read_text(encoding="utf-8") if isinstance(BaseFigureWidget._esm, Path)
               else str(BaseFigureWidget._esm))  # anywidget turns the class's path into its text
#: The messages plotly's model code applies to its copy of the figure (kept while plotly's module loads).
_MESSAGES = sorted(n for n in BaseFigureWidget.class_trait_names() if n.startswith("_py2js_"))
#: Messages that change traces only: a later full ``_widget_data`` from the kernel already holds them.
_TRACE_ONLY = ["_py2js_addTraces", "_py2js_deleteTraces", "_py2js_moveTraces", "_py2js_restyle",
               "_py2js_removeTraceProps"]

LOADER_ESM = """
// catan_nb: load plotly's widget module once per page, outside anywidget's 2-second start-up window.
const KEY = %(key)s, MESSAGES = %(messages)s, TRACE_ONLY = %(trace_only)s;
const cache = (globalThis.__catanNbPlotly ??= new Map());

function plotlyModule(model) {
  if (!cache.has(KEY)) {
    const url = URL.createObjectURL(new Blob([model.get("_plotly_esm")], { type: "text/javascript" }));
    cache.set(KEY, import(/* webpackIgnore: true */ url).finally(() => URL.revokeObjectURL(url)));
  }
  return cache.get(KEY);
}

export default () => {
  let inner = null, loaded = null;
  return {
    initialize({ model }) {
      const queue = [], handlers = new Map(), override = new Map();
      for (const name of MESSAGES) {
        model.on(`change:${name}`, () => {
          const value = model.get(name);
          if (!inner && value !== null && value !== undefined) queue.push([name, value]);
        });
      }
      model.on("change:_widget_data", () => {  // the kernel's full data supersedes earlier trace edits
        if (inner) return;
        for (let i = queue.length - 1; i >= 0; i--) {
          const [name, value] = queue[i];
          if (TRACE_ONLY.includes(name)) queue.splice(i, 1);
          else if (name === "_py2js_update") queue[i] = [name, { ...value, style_data: {} }];
        }
      });
      const proxy = {
        get: (k) => (override.has(k) ? override.get(k) : model.get(k)),
        set: (...a) => model.set(...a),
        on: (event, cb, ctx) => {
          if (!handlers.has(event)) handlers.set(event, []);
          handlers.get(event).push(cb);
          return model.on(event, cb, ctx);
        },
        off: (...a) => model.off(...a),
        save_changes: () => model.save_changes(),
        send: (...a) => model.send(...a),
      };
      loaded = plotlyModule(model).then(async (mod) => {
        const def = typeof mod.default === "function" ? await mod.default() : mod.default;
        await def.initialize?.({ model: proxy });
        inner = def;
        for (const [name, value] of queue.splice(0)) {  // as if they came now, in their order
          override.set(name, value);
          for (const cb of handlers.get(`change:${name}`) || []) cb();
          override.delete(name);
        }
      });
      loaded.catch((err) => console.error("[catan_nb] plotly's widget module failed to load", err));
    },
    async render({ model, el }) {
      await loaded;
      return inner.render({ model, el });
    },
  };
};
""" % {
    "key": json.dumps(hashlib.sha1(_PLOTLY_ESM.encode("utf-8")).hexdigest()),
    "messages": json.dumps(_MESSAGES),
    "trace_only": json.dumps(_TRACE_ONLY),
}


class FigureWidget(go.FigureWidget):
    """``plotly.graph_objects.FigureWidget`` with a browser side that survives a slow page (see the module).

    Examples
    --------
    >>> import plotly.graph_objects as go
    >>> fig = FigureWidget(go.Figure(go.Scatter(x=[0, 1], y=[1, 0], name="line")))
    >>> [t.name for t in fig.data]
    ['line']
    >>> len(fig._plotly_esm) > 1_000_000 and "_plotly_esm" in fig._esm
    True
    """

    _esm = LOADER_ESM
    _plotly_esm = traitlets.Unicode(_PLOTLY_ESM).tag(sync=True)
