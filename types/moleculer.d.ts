import type { AuthRule } from "../lib/auth/rules";
import type { ActionDoc } from "../lib/openapi/types";

declare module "moleculer" {
	interface ActionSchema {
		/** Who may call this action (lib/auth/rules.ts). An action without it is refused. */
		auth?: AuthRule;
		/** Its HTTP answers, for GET /openapi.json (services/api-gateway/openapi.ts); every gateway alias's action has one. */
		openapi?: ActionDoc;
	}
}
