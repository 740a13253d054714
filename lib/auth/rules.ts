/**
 * Who may call an action, declared on the action and enforced in one place
 * (middlewares/auth.middleware.ts). Anything not granted is denied.
 *
 * - "public": no token needed.
 * - a list of grants, any of which admits the caller:
 *   "user" (any user), "admin" (a user in group admin), "service" (any service),
 *   "service:<id>" (that service only), "enrolment" (the holder of an mfaToken
 *   that MFA_ENFORCE gave for enrolling a factor, who is admitted nowhere else).
 */
export type Grant = "user" | "admin" | "service" | "enrolment" | `service:${string}`;
export type AuthRule = "public" | readonly Grant[];

export interface UserPrincipal {
	kind: "user";
	sub: string;
	username: string;
	groups: string[];
	isAdmin: boolean;
	exp: number;
	/** auth_time: when the session's user last proved who they are (Unix seconds); step-up routes ask for a recent one. */
	authTime?: number;
	/** amr (RFC 8176) of the session, where the token carries it (the embedded provider). */
	amr?: string[];
	/** The session (refresh-token family), where the token names it. */
	sid?: string;
	/** An enrolment mfaToken's holder, not a signed-in user: only "enrolment" admits it. */
	enrolmentOnly?: boolean;
	/** Jti of the token: with Cognito, which pool tokens cannot carry the platform's claims, it finds the session's record. */
	jti?: string;
	/** Cognito's origin_jti: the same for every access token of one sign-in (its refreshes included), so the deny list can name a session whose tokens carry no sid. */
	originJti?: string;
}

export interface ServicePrincipal {
	kind: "service";
	sub: string;
	serviceId: string;
	exp: number;
}

export type Principal = UserPrincipal | ServicePrincipal;

export type Decision = "allow" | "forbidden" | "service-not-allowed";

export function decide(rule: readonly Grant[], p: Principal): Decision {
	if (p.kind === "user") {
		if (p.enrolmentOnly) return rule.includes("enrolment") ? "allow" : "forbidden";
		if (rule.includes("user")) return "allow";
		if (p.isAdmin && rule.includes("admin")) return "allow";
		return "forbidden";
	}
	if (rule.includes("service") || rule.includes(`service:${p.serviceId}`)) return "allow";
	return "service-not-allowed";
}
