/**
 * Authentication metrics for Prometheus, on the nodes that run the auth service:
 * sign-ins by method and result, their failures by the contract's code, refreshes by
 * result, and MFA challenges by factor and result. Counted by action hooks (ACTION
 * hooks below), so a request refused before the action (a malformed body, a rate
 * limit) is not an attempt here; the gateway's per-route metrics count it.
 */
import type { Context, ServiceBroker, ServiceHooks } from "moleculer";
import { isErrorCode } from "../errors";

export const AUTH_METRIC = {
	signIns: "auth_sign_ins_total",
	signInFailures: "auth_sign_in_failures_total",
	refreshes: "auth_token_refreshes_total",
	mfaChallenges: "auth_mfa_challenges_total"
} as const;

export type SignInMethod = "password" | "social";
export type MfaFactor = "totp" | "webauthn" | "sms" | "recovery";

export function registerAuthMetrics(broker: ServiceBroker): void {
	if (!broker.isMetricsEnabled() || broker.metrics.hasMetric(AUTH_METRIC.signIns)) return;
	const m = broker.metrics;
	m.register({ type: "counter", name: AUTH_METRIC.signIns, labelNames: ["method", "result"], description: "Sign-ins by method (password, social) and result (success, failure, second_factor: the first factor passed and a second one is asked for)" });
	m.register({ type: "counter", name: AUTH_METRIC.signInFailures, labelNames: ["method", "reason"], description: "Failed sign-ins by method and the code answered (INVALID_CREDENTIALS, ...; ERROR for a failure of the platform)" });
	m.register({ type: "counter", name: AUTH_METRIC.refreshes, labelNames: ["result"], description: "Token refreshes by result: success, or the code answered" });
	m.register({ type: "counter", name: AUTH_METRIC.mfaChallenges, labelNames: ["factor", "result"], description: "MFA challenges by factor (totp, webauthn, sms, recovery) and result (success, failure)" });
}

/** The contract's code of a failure; ERROR for anything else (a provider that cannot be reached), so the label has few values. */
function reasonOf(err: unknown): string {
	const type = (err as { type?: unknown } | null)?.type;
	return isErrorCode(type) ? type : "ERROR";
}

function isSecondStep(err: unknown): boolean {
	const type = (err as { type?: unknown } | null)?.type;
	return type === "MFA_REQUIRED" || type === "MFA_ENROLLMENT_REQUIRED";
}

function count(broker: ServiceBroker, name: string, labels: Record<string, string>): void {
	if (broker.isMetricsEnabled()) broker.metrics.increment(name, labels);
}

/** For the MFA flows: one verification of a challenge. */
export function countMfaChallenge(broker: ServiceBroker, factor: MfaFactor, result: "success" | "failure"): void {
	count(broker, AUTH_METRIC.mfaChallenges, { factor, result });
}

function signIn(method: SignInMethod) {
	return {
		after(this: { broker: ServiceBroker }, _ctx: Context, res: unknown) {
			count(this.broker, AUTH_METRIC.signIns, { method, result: "success" });
			return res;
		},
		error(this: { broker: ServiceBroker }, _ctx: Context, err: unknown): never {
			// The first factor passed: the sign-in goes on at POST /auth/mfa/verify (counted by countMfaChallenge).
			if (isSecondStep(err)) {
				count(this.broker, AUTH_METRIC.signIns, { method, result: "second_factor" });
				throw err;
			}
			count(this.broker, AUTH_METRIC.signIns, { method, result: "failure" });
			count(this.broker, AUTH_METRIC.signInFailures, { method, reason: reasonOf(err) });
			throw err;
		}
	};
}

const password = signIn("password");
const social = signIn("social");

/** The auth service's hooks: login is a password sign-in, exchange a social one, refresh a refresh. */
export const AUTH_METRIC_HOOKS: ServiceHooks = {
	after: {
		login: password.after,
		exchange: social.after,
		refresh(this: { broker: ServiceBroker }, _ctx: Context, res: unknown) {
			count(this.broker, AUTH_METRIC.refreshes, { result: "success" });
			return res;
		}
	},
	error: {
		login: password.error,
		exchange: social.error,
		refresh(this: { broker: ServiceBroker }, _ctx: Context, err: unknown): never {
			count(this.broker, AUTH_METRIC.refreshes, { result: reasonOf(err) });
			throw err;
		}
	}
};
