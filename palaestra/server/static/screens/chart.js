// A rating history as a small inline SVG chart (no chart library): a polyline over the games, with
// axes and the lowest and highest rating labelled; a <title> and a text summary say it in words.

import { t } from "/static/i18n.js";
import { el, svg } from "/static/dom.js";

const W = 320;
const H = 140;
const PAD = { left: 44, right: 8, top: 10, bottom: 22 };

// points: the ratings in order (the first one is the start); label: what the chart is of
export function ratingChart(points, label, id) {
  const lo = Math.min(...points);
  const hi = Math.max(...points);
  const span = hi - lo || 1;
  const x = (i) => PAD.left + (points.length === 1 ? 0 : (i * (W - PAD.left - PAD.right)) / (points.length - 1));
  const y = (r) => PAD.top + ((hi - r) * (H - PAD.top - PAD.bottom)) / span;
  const values = { n: points.length - 1, first: points[0], last: points[points.length - 1], min: lo, max: hi };
  const summary = points.length === 2 ? t("1 rated game: from {first} to {last}.", values)
    : t("{n} rated games: from {first} to {last}; lowest {min}, highest {max}.", values);
  const chart = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "rating-chart", role: "img", "aria-labelledby": `${id}-title ${id}-desc`, "data-points": points.length },
    svg("title", { id: `${id}-title`, text: label }),
    svg("desc", { id: `${id}-desc`, text: summary }),
    svg("line", { class: "axis", x1: PAD.left, y1: PAD.top, x2: PAD.left, y2: H - PAD.bottom }),
    svg("line", { class: "axis", x1: PAD.left, y1: H - PAD.bottom, x2: W - PAD.right, y2: H - PAD.bottom }),
    svg("text", { class: "axis-label", x: PAD.left - 4, y: y(hi) + 4, "text-anchor": "end", text: String(hi) }),
    hi !== lo ? svg("text", { class: "axis-label", x: PAD.left - 4, y: y(lo) + 4, "text-anchor": "end", text: String(lo) }) : null,
    svg("text", { class: "axis-label", x: (W + PAD.left) / 2, y: H - 6, "text-anchor": "middle", text: t("games") }),
    svg("polyline", { class: "line", points: points.map((r, i) => `${x(i).toFixed(1)},${y(r).toFixed(1)}`).join(" ") }),
    points.map((r, i) => svg("circle", { class: "dot", cx: x(i).toFixed(1), cy: y(r).toFixed(1), r: 2.5 })));
  return el("figure", { class: "chart" }, chart, el("figcaption", { class: "small muted", text: summary }));
}
