/**
 * The gateway leaves its hooks off the aliases that need neither (services/api-gateway
 * hooks.ts needsHooks, routes.ts buildRoutes). What the hooks do for each policy runs
 * over HTTP in gateway-routes.test.ts; here: which aliases get them, and that moleculer-web
 * still meets the aliases in their declared order.
 */
import { afterCall, beforeCall, needsHooks } from "../../services/api-gateway/hooks";
import { buildRoutes, ROUTES } from "../../services/api-gateway/routes";
import type { AliasPolicy, AppliedPolicy } from "../../services/api-gateway/types";

describe("the gateway's route hooks", () => {
	const built = buildRoutes(ROUTES);

	it("should keep every declared alias, in the declared order, under its declared path", () => {
		const declared = ROUTES.flatMap(r => Object.keys(r.aliases).map(a => `${r.path} ${a}`));
		const kept = built.flatMap(r => Object.keys(r.aliases).map(a => `${r.path} ${a}`));
		expect(kept).toEqual(declared);
	});

	it("should give the hooks to a route exactly when its aliases need them", () => {
		for (const route of built) {
			const policies = Object.values(route.aliases).map(a => a.policy);
			const needed = policies.map(needsHooks);
			// A route is a run of aliases with the same need.
			expect(new Set(needed).size).toBe(1);
			expect(route.onBeforeCall).toBe(needed[0] ? beforeCall : undefined);
			expect(route.onAfterCall).toBe(needed[0] ? afterCall : undefined);
		}
		// The busiest read goes without them; a rate-limited sign-in keeps them.
		const routeOf = (path: string, alias: string) => built.find(r => r.path === path && alias in r.aliases)!;
		expect(routeOf("", "GET actors/:id").onBeforeCall).toBeUndefined();
		expect(routeOf("/auth", "POST login").onBeforeCall).toBe(beforeCall);
		expect(routeOf("", "GET notifications/:notificationId/events").onAfterCall).toBe(afterCall);
	});

	it("should name every route apart", () => {
		const names = built.map(r => r.name);
		expect(new Set(names).size).toBe(names.length);
	});

	it("should need the hooks for any body kind but none, and for each policy the hooks read", () => {
		const plain: AppliedPolicy = { body: "none" };
		expect(needsHooks(plain)).toBe(false);
		for (const body of ["json", "sns", "multipart", "flag", "one-click"] as const) expect(needsHooks({ body })).toBe(true);
		const read: Required<Omit<AliasPolicy, "bodyless" | "failure" | "enrolmentBearer">> = {
			rateLimit: { bucket: "login" },
			noStore: true,
			bodyParamsOnly: true,
			bindingCookie: true,
			stream: "sse",
			idempotencyKey: true,
			origin: true
		};
		for (const [field, value] of Object.entries(read)) expect([field, needsHooks({ ...plain, [field]: value })]).toEqual([field, true]);
		// Read elsewhere: bodyless by the JSON body check (never a plain alias), failure by the error handler, enrolmentBearer by authenticate.
		expect(needsHooks({ ...plain, bodyless: true, failure: "ui-redirect", enrolmentBearer: true })).toBe(false);
	});
});
