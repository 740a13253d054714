/**
 * The one place where callers are authorized. Every action declares `auth`
 * (lib/auth/rules.ts); an action without it is refused. The token travels in
 * ctx.meta.authToken and is verified by every service that receives the call:
 * nothing else in meta is trusted, because any node can put anything there.
 * The verified principal goes to ctx.locals, which never leaves this process.
 */
import type { Context, Middleware, ServiceBroker } from "moleculer";
import { decide, type AuthRule, type Principal } from "../lib/auth/rules";
import { authTimeOf, checkStepUp, enrolmentPrincipal, looksLikeMfaToken } from "../lib/mfa/step-up";
import { ClientError, forbidden, unauthorized } from "../lib/errors";
import type { Runtime } from "../lib/runtime";

export interface AuthMeta {
	authToken?: string;
}

export interface AuthLocals {
	principal?: Principal;
}

type Handler = (ctx: Context<unknown, AuthMeta, AuthLocals>) => unknown;

export function principalOf(ctx: Context): Principal | undefined {
	return (ctx.locals as AuthLocals).principal;
}

export function AuthMiddleware(runtime: Runtime): Middleware {
	return {
		name: "Auth",
		localAction(this: ServiceBroker, next: Handler, action: { name: string; auth?: AuthRule; stepUp?: boolean; service?: { name: string } }) {
			// Moleculer's own introspection service ($node) is internal to the cluster.
			if (action.service?.name?.startsWith("$")) return next;
			const rule = action.auth;
			if (rule === "public") return next;
			if (!Array.isArray(rule) || rule.length === 0) {
				this.logger.warn(`Action '${action.name}' declares no auth rule: every call to it is refused.`);
				return () => Promise.reject(forbidden("FORBIDDEN", "This action is not callable."));
			}
			const stepUp = action.stepUp === true;
			const takesEnrolment = rule.includes("enrolment");
			/** Step-up routes: the sign-in behind the token must be recent (lib/mfa/step-up.ts). */
			const recentEnough = async (principal: Principal): Promise<void> => {
				if (principal.kind !== "user") return;
				const { config } = runtime;
				const authTime = await authTimeOf(principal, config.idp.kind === "cognito", () => runtime.store());
				checkStepUp(authTime, config.accounts.mfa.stepUpMaxAgeSec);
			};
			const admit = (ctx: Context<unknown, AuthMeta, AuthLocals>, principal: Principal): unknown => {
				switch (decide(rule, principal)) {
					case "allow":
						ctx.locals.principal = principal;
						if (stepUp) return recentEnough(principal).then(() => next(ctx));
						return next(ctx);
					case "service-not-allowed":
						return Promise.reject(new ClientError(403, "SERVICE_NOT_ALLOWED", "The calling service is not allowed here."));
					default:
						return Promise.reject(forbidden());
				}
			};
			return (ctx: Context<unknown, AuthMeta, AuthLocals>) => {
				const token = ctx.meta.authToken;
				if (typeof token !== "string" || !token) return Promise.reject(unauthorized());
				// An enrolment mfaToken, on the few actions that take one.
				if (takesEnrolment && looksLikeMfaToken(token)) return enrolmentPrincipal(runtime.store(), token).then(principal => admit(ctx, principal));
				// A token this node verified before (the gateway's, in one process) needs no promise; any other is verified in full.
				const cached = runtime.cachedPrincipal(token);
				if (cached) return admit(ctx, cached);
				return runtime
					.verifier()
					.then(v => v.verify(token))
					.then(principal => admit(ctx, principal));
			};
		}
	} as unknown as Middleware;
}
