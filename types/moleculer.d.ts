import type { AuthRule } from "../lib/auth/rules";

declare module "moleculer" {
	interface ActionSchema {
		/** Who may call this action (lib/auth/rules.ts). An action without it is refused. */
		auth?: AuthRule;
	}
}
