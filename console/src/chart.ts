/**
 * Small line charts in SVG, drawn from the data alone (no library, nothing inline
 * for the CSP to refuse). Each has a text alternative with its latest and highest
 * values, since a line cannot be read by a screen reader.
 */
import { h, svg } from "./dom.js";

const W = 240;
const H = 56;

/** `xs`: where each value lies across the chart, 0 to 1 (samples taken at their own times); evenly spread when absent. */
export function sparkline(title: string, values: number[], labels: string[] = [], xs?: number[]): HTMLElement {
	const max = Math.max(1, ...values);
	const n = Math.max(2, values.length);
	const x = (i: number) => (xs ? Math.min(1, Math.max(0, xs[i])) : i / (n - 1)) * W;
	const points = values.map((v, i) => `${x(i).toFixed(1)},${(H - 2 - (v / max) * (H - 4)).toFixed(1)}`);
	const last = values[values.length - 1] ?? 0;
	const summary = `${title}: now ${last}, highest ${Math.max(0, ...values)}${labels.length ? ` since ${labels[0]}` : ""}.`;
	const chart = svg("svg", { viewBox: `0 0 ${W} ${H}`, width: W, height: H, role: "img", "aria-label": summary, class: "spark" });
	chart.append(svg("line", { x1: 0, y1: H - 1, x2: W, y2: H - 1, class: "axis" }));
	if (points.length > 0) chart.append(svg("polyline", { points: points.join(" "), class: "line", fill: "none" }));
	return h("figure", { class: "chart" }, h("figcaption", {}, title, " ", h("span", { class: "muted" }, `(max ${Math.max(0, ...values)})`)), chart);
}
