/**
 * Two answers lib/problem.ts gives clients: the Bearer challenge of every 401 (RFC 6750,
 * RFC 9110), and field problems for enum parameters that name the allowed values. The
 * enum check runs over every enum parameter of every action a gateway alias calls,
 * through the validator the broker is given (moleculer.config.ts), so a new enum
 * parameter is covered when it is added.
 */
import { Errors, Validators } from "moleculer";
import { ClientError, unauthorized } from "../../lib/errors";
import { toProblem, VALIDATION_MESSAGES } from "../../lib/errors/problem";
import { stepUpRequired } from "../../lib/mfa/step-up";
import GatewayService from "../../services/api-gateway/api-gateway.service";
import { DOCUMENTED_SERVICES } from "../../services/api-gateway/docs";
import { actionCatalog, listAliases } from "../../services/api-gateway/openapi";
import { ROUTES } from "../../services/api-gateway/routes";

describe("the challenge of a 401", () => {
	it("should send the bare Bearer challenge when no Bearer token came", () => {
		expect(toProblem(unauthorized(), "r1").headers["WWW-Authenticate"]).toBe('Bearer realm="auth-notify"');
		expect(toProblem(unauthorized(), "r1", { bearerSent: false }).headers["WWW-Authenticate"]).toBe('Bearer realm="auth-notify"');
	});

	it("should say invalid_token, with the problem's detail, when the Bearer token sent was refused", () => {
		const { headers, problem } = toProblem(unauthorized("The token is invalid or expired."), "r1", { bearerSent: true });
		expect(headers["WWW-Authenticate"]).toBe('Bearer realm="auth-notify", error="invalid_token", error_description="The token is invalid or expired."');
		expect(problem).toMatchObject({ status: 401, code: "UNAUTHORIZED" });
	});

	it("should send the bare challenge for a 401 about something other than the Bearer token, token or not", () => {
		for (const code of ["INVALID_CREDENTIALS", "INVALID_REFRESH_TOKEN", "INVALID_TEMPORARY_TOKEN"] as const) {
			const { headers } = toProblem(new ClientError(401, code, "Refused."), "r1", { bearerSent: true });
			expect([code, headers["WWW-Authenticate"]]).toEqual([code, 'Bearer realm="auth-notify"']);
		}
	});

	it("should keep quotes and backslashes out of error_description", () => {
		const { headers } = toProblem(unauthorized('Bad "token" \\ here\n'), "r1", { bearerSent: true });
		expect(headers["WWW-Authenticate"]).toBe('Bearer realm="auth-notify", error="invalid_token", error_description="Bad token  here"');
	});

	it("should ask for a newer sign-in (RFC 9470) when a step-up route refuses an old one", () => {
		const { headers, problem } = toProblem(stepUpRequired(300), "r1", { bearerSent: true });
		expect(headers["WWW-Authenticate"]).toBe(
			'Bearer realm="auth-notify", error="insufficient_user_authentication", error_description="This route needs a sign-in at most 300 seconds old: sign in again.", max_age=300'
		);
		expect(problem).toMatchObject({ status: 401, code: "STEP_UP_REQUIRED" });
	});

	it("should carry MFA_REQUIRED's mfaToken and factors as members of the problem, and no other data", () => {
		const err = new ClientError(403, "MFA_REQUIRED", "A second factor is required.", { members: { mfaToken: "t".repeat(43), factors: ["totp", "recovery"] } });
		expect(toProblem(err, "r1").problem).toEqual({
			type: "urn:auth-notify:problem:mfa-required",
			title: "Forbidden",
			status: 403,
			detail: "A second factor is required.",
			code: "MFA_REQUIRED",
			requestId: "r1",
			mfaToken: "t".repeat(43),
			factors: ["totp", "recovery"]
		});
		// Members travel only on the contract's client errors: a 5xx never shows them.
		const internal = new Errors.MoleculerError("boom", 500, "X", { members: { mfaToken: "leak" } });
		expect(toProblem(internal, "r1").problem).not.toHaveProperty("mfaToken");
	});

	it("should send no challenge on other statuses", () => {
		expect(toProblem(new ClientError(403, "FORBIDDEN", "No."), "r1", { bearerSent: true }).headers).toEqual({});
	});
});

type Rule = { type?: string; values?: readonly string[]; props?: Record<string, Rule>; items?: Rule; [k: string]: unknown };

interface EnumParam {
	action: string;
	/** The field as fastest-validator names it: items[0].channel. */
	field: string;
	values: readonly string[];
	/** A params object with a value outside the enum at `field` (other fields may be missing: only this field's problem is read). */
	params: (bad: string) => Record<string, unknown>;
}

/** Every enum rule in a params schema, at any depth, with a way to put a value there. */
function enumParams(action: string, params: Record<string, Rule>): EnumParam[] {
	const out: EnumParam[] = [];
	const walk = (rule: Rule | string, field: string, place: (v: unknown) => Record<string, unknown>) => {
		if (typeof rule !== "object") return;
		if (rule.type === "enum") out.push({ action, field, values: rule.values!, params: bad => place(bad) });
		if (rule.type === "object" && rule.props) {
			for (const [name, r] of Object.entries(rule.props)) walk(r, `${field}.${name}`, v => place({ [name]: v }));
		}
		if (rule.type === "array" && rule.items) walk(rule.items, `${field}[0]`, v => place([v]));
	};
	for (const [name, rule] of Object.entries(params)) {
		if (!name.startsWith("$$")) walk(rule, name, v => ({ [name]: v }));
	}
	return out;
}

describe("enum validation messages", () => {
	const catalog = actionCatalog([...DOCUMENTED_SERVICES, { ...(GatewayService as object), name: "api" }]);
	const called = new Set(listAliases(ROUTES, catalog).map(a => a.action));
	const all = [...called].flatMap(action => enumParams(action, (catalog.get(action)?.params ?? {}) as Record<string, Rule>));
	// The broker's validator, made as moleculer.config.ts makes it.
	const validator = new Validators.Fastest({ messages: VALIDATION_MESSAGES });

	it("should find the enum parameters of the route table", () => {
		const found = all.map(e => `${e.action} ${e.field}`);
		expect(found).toEqual(
			expect.arrayContaining([
				"notifications.create priority",
				"notifications.create channel",
				"notifications.list status",
				"notifications.list channel",
				"preferences.putPreferences items[0].channel",
				"outbound.createEndpoint events[0]",
				"preferences.removeSuppression channel"
			])
		);
	});

	// A value that is part of an allowed one ("MAIL" of "EMAIL"), a letter of the message's wording, and one like none of them.
	it.each(all.flatMap(e => [e.values[0].slice(1), "n", "NOT-ALLOWED"].map(bad => [`${e.action} ${e.field} = ${bad}`, e, bad] as const)))(
		"should name every allowed value for %s",
		(_label, e, bad) => {
			const check = validator.compile(catalog.get(e.action)!.params as Record<string, unknown>);
			// fastest-validator answers the field problems (typed as a boolean by Moleculer's checker type).
			const result: unknown = check(e.params(bad));
			if (!Array.isArray(result)) throw new Error(`${e.field} = ${bad} was accepted`);
			const { problem } = toProblem(new Errors.ValidationError("Parameters validation error!", "VALIDATION_ERROR", result), "r1");
			const own = problem.errors?.find(p => p.field === e.field);
			expect(own).toEqual({ field: e.field, message: expect.stringContaining(`must be one of: ${e.values.join(", ")}.`) });
			expect(own!.message).not.toContain(`'${bad}'`);
		}
	);
});
