import type { AuthRule } from "../lib/auth/rules";
import type { ActionDoc } from "../lib/openapi/types";

declare module "moleculer" {
	interface ActionSchema {
		/** Who may call this action (lib/auth/rules.ts). An action without it is refused. */
		auth?: AuthRule;
		/** A step-up route: the caller's sign-in (auth_time) must be at most STEP_UP_MAX_AGE_SECONDS old (middlewares/auth.middleware.ts). */
		stepUp?: boolean;
		/** Its HTTP answers, for GET /openapi.json (services/api-gateway/openapi.ts); every gateway alias's action has one. */
		openapi?: ActionDoc;
	}
}
