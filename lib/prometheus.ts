/**
 * Moleculer's Prometheus reporter, with whole histograms for those that keep only
 * buckets. Moleculer writes a histogram's _sum and _count only beside its quantiles,
 * which it computes over a sliding window of every value observed: too much for a
 * value observed on every request (services/api-gateway/observe.ts). A histogram with
 * buckets and no quantiles is written here instead, as Prometheus defines one: its
 * buckets in order, +Inf, _sum and _count. Every other metric is Moleculer's as before.
 */
import { MetricReporters, type MetricRegistry, type MetricTypes } from "moleculer";

type Histogram = InstanceType<typeof MetricTypes.Histogram>;

function bucketOnly(metric: { type: string }): metric is Histogram {
	const h = metric as Histogram;
	return metric.type === "histogram" && Array.isArray(h.buckets) && !(Array.isArray(h.quantiles) && h.quantiles.length > 0);
}

export class PrometheusReporter extends MetricReporters.Prometheus {
	override matchMetricName(name: string): boolean {
		const metric = this.registry.store.get(name);
		return !(metric && bucketOnly(metric)) && super.matchMetricName(name);
	}

	override generatePrometheusResponse(): string {
		const lines = [super.generatePrometheusResponse()];
		for (const metric of this.registry.store.values()) {
			if (!bucketOnly(metric) || !super.matchMetricName(metric.name)) continue;
			const snapshot = metric.snapshot();
			if (snapshot.length === 0) continue;
			const name = this.formatMetricName(metric.name).replace(/[.-]/g, "_");
			lines.push(`# HELP ${name} ${metric.description ?? metric.name}`, `# TYPE ${name} histogram`);
			for (const item of snapshot) {
				for (const le of metric.buckets) lines.push(`${name}_bucket${this.labelsToStr(item.labels, { le })} ${item.buckets?.[le] ?? 0}`);
				lines.push(`${name}_bucket${this.labelsToStr(item.labels, { le: "+Inf" })} ${item.count}`);
				lines.push(`${name}_sum${this.labelsToStr(item.labels)} ${item.sum}`, `${name}_count${this.labelsToStr(item.labels)} ${item.count}`);
			}
			lines.push("");
		}
		return lines.join("\n");
	}
}

/** The broker's metrics options: Prometheus on `port`, at /metrics. */
export function prometheusMetrics(port: number): MetricRegistry.MetricRegistryOptions {
	// Moleculer resolves a reporter instance as it is; its typings list only the built-in names.
	return { enabled: true, reporter: [new PrometheusReporter({ port, path: "/metrics" }) as unknown as MetricRegistry.MetricsReporter] };
}
