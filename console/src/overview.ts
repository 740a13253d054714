/**
 * Overview: the queue per priority, sends per minute, failure, bounce and complaint
 * rates, and small charts of the last hour, read from GET /admin/stats, and the email
 * and SMS providers' health from GET /admin/providers; refreshed every few seconds
 * while the page is visible.
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

export interface ProviderHealth {
	channel: string;
	name: string;
	state: "up" | "down" | "probing";
	consecutiveFailures: number;
	lastError?: string;
	since: string;
}

export const REFRESH_MS = 3000;

const STATE_TEXT: Record<ProviderHealth["state"], string> = { up: "Up", down: "Down (skipped)", probing: "Probing" };
const STATE_CLASS: Record<ProviderHealth["state"], string> = { up: "badge ok", down: "badge danger", probing: "badge warn" };

/** One row per provider, in the order each channel tries them. */
function providersPanel(items: ProviderHealth[] | null): HTMLElement {
	if (!items) return h("p", { class: "notice error", id: "providers" }, "Provider health could not be read.");
	if (items.length === 0) return h("p", { class: "muted", id: "providers" }, "No dispatcher is running to report its providers.");
	return h(
		"table",
		{ class: "providers", id: "providers", "aria-describedby": "providers-caption" },
		h("caption", { id: "providers-caption" }, "Email and SMS providers, in the order each channel tries them"),
		h(
			"thead",
			{},
			h("tr", {}, ...["Channel", "Provider", "State", "Since", "Consecutive failures", "Last error"].map(c => h("th", { scope: "col" }, c)))
		),
		h(
			"tbody",
			{},
			...items.map(p =>
				h(
					"tr",
					{ "data-provider": `${p.channel}:${p.name}`, "data-state": p.state },
					h("td", {}, p.channel),
					h("th", { scope: "row" }, p.name),
					h("td", {}, h("span", { class: STATE_CLASS[p.state] }, STATE_TEXT[p.state])),
					h("td", {}, new Date(p.since).toLocaleString()),
					h("td", { class: "failures" }, String(p.consecutiveFailures)),
					h("td", {}, p.lastError ?? "—")
				)
			)
		)
	);
}

const stat = (label: string, value: string, id: string) => h("div", { class: "stat", id }, h("div", { class: "stat-label" }, label), h("div", { class: "stat-value" }, value));

function render(s: AdminStats, lowPaused: boolean | null, providers: ProviderHealth[] | null): HTMLElement[] {
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
	return [
		h("div", { class: "grid" }, queue, stats),
		note ?? "",
		h("h2", {}, "Providers"),
		providersPanel(providers),
		h("h2", {}, "Last hour"),
		h("p", { class: "muted" }, "Sends and failures per minute; queue depth sampled once a minute and now."),
		charts
	].filter(x => x !== "") as HTMLElement[];
}

export function overviewPage(client: Client, root: HTMLElement): () => void {
	const body = h("div", { id: "overview-body" }, h("p", {}, "Loading…"));
	const updated = h("p", { class: "muted", id: "updated", role: "status", "aria-live": "polite" });
	root.append(h("h1", {}, "Overview"), updated, body);
	let stopped = false;
	const refresh = async () => {
		try {
			const [s, flags, providers] = await Promise.all([
				call<AdminStats>(client, "/admin/stats"),
				// The list, not GET /admin/features/{name}: a flag never set answers 404, which the browser logs as an error.
				call<{ items: { featureName: string; value: { paused?: boolean } }[] }>(client, "/admin/features").catch(() => null),
				call<{ items: ProviderHealth[] }>(client, "/admin/providers").catch(() => null)
			]);
			const lowPaused = flags ? flags.items.find(f => f.featureName === "notifications.low-priority")?.value.paused === true : null;
			if (stopped) return;
			body.replaceChildren(...render(s, lowPaused, providers ? providers.items : null));
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
