/**
 * Who an action's rule admits (lib/auth/rules.ts decide), the enrolment grant above all:
 * the holder of an enrolment mfaToken is admitted only where a rule names "enrolment".
 */
import { decide, type Grant, type UserPrincipal } from "../../lib/auth/rules";
import { checkStepUp } from "../../lib/mfa/step-up";

const user: UserPrincipal = { kind: "user", sub: "u", username: "u@example.com", groups: [], isAdmin: false, exp: 0 };
const admin: UserPrincipal = { ...user, groups: ["admin"], isAdmin: true };
const enrolling: UserPrincipal = { ...admin, enrolmentOnly: true };

describe("the rules of actions", () => {
	it.each<[string, UserPrincipal, readonly Grant[], string]>([
		["a user on a user route", user, ["user"], "allow"],
		["a user on an admin route", user, ["admin"], "forbidden"],
		["an administrator on an admin route", admin, ["admin"], "allow"],
		["an enrolment holder on an enrolment route", enrolling, ["user", "enrolment"], "allow"],
		["an enrolment holder on a user route", enrolling, ["user"], "forbidden"],
		["an enrolment holder of an administrator on an admin route", enrolling, ["admin"], "forbidden"],
		["a user on an enrolment route", user, ["user", "enrolment"], "allow"]
	])("should decide %s", (_label, principal, rule, decision) => {
		expect(decide(rule, principal)).toBe(decision);
	});
});

describe("step-up", () => {
	const now = () => 1_000_000_000;

	it("should pass a sign-in up to the limit old and refuse an older one or none", () => {
		expect(() => checkStepUp(1_000_000 - 300, 300, now)).not.toThrow();
		expect(() => checkStepUp(1_000_000 - 301, 300, now)).toThrow(expect.objectContaining({ code: 401, type: "STEP_UP_REQUIRED" }));
		expect(() => checkStepUp(undefined, 300, now)).toThrow(expect.objectContaining({ type: "STEP_UP_REQUIRED" }));
	});
});
