/**
 * Overview: the queue per priority, sends per minute, failure, bounce and complaint
 * rates, and small charts of the last hour, read from GET /admin/stats and refreshed
 * every few seconds while the page is visible.
 */
import { call, type Client } from "./api.js";
import { sparkline } from "./chart.js";
import { age, h, percent } from "./dom.js";

const PRIORITIES = ["CRITICAL", "HIGH", "NORMAL", "LOW"] as const;
type Priority = (typeof PRIORITIES)[number];

export interface AdminStats {
	at: string;
	queue: { priority: Priority; depth: number; scheduled: number; oldestAgeSeconds: number }[];
	dispatchers: number;
	sendsPerMinute: number;
	rates: { failure: number; bounce: number; complaint: number };
	series: { minutes: string[]; sent: number[]; failed: number[]; depth: { at: string; depth: Record<Priority, number> }[] };
}

export const REFRESH_MS = 3000;

const stat = (label: string, value: string, id: string) => h("div", { class: "stat", id }, h("div", { class: "stat-label" }, label), h("div", { class: "stat-value" }, value));

function render(s: AdminStats, lowPaused: boolean | null): HTMLElement[] {
	const queue = h(
		"table",
		{ class: "queue", "aria-describedby": "queue-caption" },
		h("caption", { id: "queue-caption" }, "Queued notifications per priority"),
		h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Priority"), h("th", { scope: "col" }, "Due"), h("th", { scope: "col" }, "Oldest waiting"), h("th", { scope: "col" }, "Scheduled"))),
		h(
			"tbody",
			{},
			...s.queue.map(q =>
				h(
					"tr",
					{ "data-priority": q.priority },
					h("th", { scope: "row" }, q.priority, q.priority === "LOW" && lowPaused ? h("span", { class: "badge warn" }, "paused") : null),
					h("td", { class: "depth" }, String(q.depth)),
					h("td", {}, q.depth ? age(q.oldestAgeSeconds) : "—"),
					// Sent later on purpose (sendAt) or waiting for a retry: not a backlog.
					h("td", { class: "scheduled" }, String(q.scheduled))
				)
			)
		)
	);
	const stats = h(
		"div",
		{ class: "stats" },
		stat("Sends per minute", String(s.sendsPerMinute), "stat-sends"),
		stat("Failure rate (1 h)", percent(s.rates.failure), "stat-failure"),
		stat("Bounce rate (24 h)", percent(s.rates.bounce), "stat-bounce"),
		stat("Complaint rate (24 h)", percent(s.rates.complaint), "stat-complaint")
	);
	const hhmm = (iso: string) => new Date(iso).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
	// Depth samples are placed by their time on the same hour as the per-minute series.
	const start = Date.parse(s.series.minutes[0]);
	const span = Math.max(1, Date.parse(s.at) - start);
	const xs = s.series.depth.map(d => (Date.parse(d.at) - start) / span);
	const charts = h(
		"div",
		{ class: "charts" },
		sparkline("Sent per minute", s.series.sent, s.series.minutes.map(hhmm)),
		sparkline("Failed per minute", s.series.failed, s.series.minutes.map(hhmm)),
		...PRIORITIES.map(p => sparkline(`${p} depth`, s.series.depth.map(d => d.depth[p]), s.series.depth.map(d => hhmm(d.at)), xs))
	);
	const note = s.dispatchers === 0 ? h("p", { class: "notice error" }, "No dispatcher is running: nothing is being sent.") : null;
	return [h("div", { class: "grid" }, queue, stats), note ?? "", h("h2", {}, "Last hour"), h("p", { class: "muted" }, "Sends and failures per minute; queue depth sampled once a minute and now."), charts].filter(x => x !== "") as HTMLElement[];
}

export function overviewPage(client: Client, root: HTMLElement): () => void {
	const body = h("div", { id: "overview-body" }, h("p", {}, "Loading…"));
	const updated = h("p", { class: "muted", id: "updated", role: "status", "aria-live": "polite" });
	root.append(h("h1", {}, "Overview"), updated, body);
	let stopped = false;
	const refresh = async () => {
		try {
			const [s, flags] = await Promise.all([
				call<AdminStats>(client, "/admin/stats"),
				// The list, not GET /admin/features/{name}: a flag never set answers 404, which the browser logs as an error.
				call<{ items: { featureName: string; value: { paused?: boolean } }[] }>(client, "/admin/features").catch(() => null)
			]);
			const lowPaused = flags ? flags.items.find(f => f.featureName === "notifications.low-priority")?.value.paused === true : null;
			if (stopped) return;
			body.replaceChildren(...render(s, lowPaused));
			updated.textContent = `Updated ${new Date(s.at).toLocaleTimeString()}; refreshes every ${REFRESH_MS / 1000} s.`;
		} catch (err) {
			if (!stopped) updated.textContent = `Refresh failed: ${(err as Error).message}`;
		}
	};
	void refresh();
	const timer = setInterval(() => {
		if (document.visibilityState === "visible") void refresh();
	}, REFRESH_MS);
	return () => {
		stopped = true;
		clearInterval(timer);
	};
}
