/**
 * What other parts of the platform plug into notifications when the process starts
 * (lib/runtime.ts registers them), so that this folder imports none of them: the
 * account lifecycle's mails register the variables their links are made of at send
 * time, and the template names only administrators may use.
 */
import type { Principal } from "../auth/rules";
import { ClientError } from "../errors";
import type { SendTimeRef, NotificationDoc } from "./model";
import type { Variables } from "./render";

/** Makes a notification's send-time variables from its `sendTime` reference (never stored). */
export type SendTimeResolver = (ref: SendTimeRef, n: NotificationDoc) => Promise<Variables>;

interface ReservedNames {
	names: ReadonlySet<string>;
	mayUse: (caller: Principal) => boolean;
}

export class NotificationExtensions {
	private resolver: SendTimeResolver | null = null;
	private names: readonly string[] = [];
	private readonly reserved: ReservedNames[] = [];

	/** The resolver of notifications that carry a send-time reference, and the variable names it fills. */
	resolveAtSendTime(variableNames: readonly string[], resolver: SendTimeResolver): void {
		this.names = variableNames;
		this.resolver = resolver;
	}

	/** Variables filled at send time, so not asked of a request that carries a send-time reference. */
	get sendTimeVariableNames(): readonly string[] {
		return this.names;
	}

	/** The variables one notification gets at send time: none unless it carries a reference. */
	async sendTimeVariables(n: NotificationDoc): Promise<Variables> {
		return n.lifecycle && this.resolver ? this.resolver(n.lifecycle, n) : {};
	}

	/** Template names only callers that `mayUse` allows may create or take. */
	reserveTemplateNames(names: readonly string[], mayUse: (caller: Principal) => boolean): void {
		this.reserved.push({ names: new Set(names), mayUse });
	}

	/** 403 FORBIDDEN when the name is reserved for others. */
	checkTemplateName(caller: Principal, name: string): void {
		const rule = this.reserved.find(r => r.names.has(name.trim()));
		if (rule && !rule.mayUse(caller)) throw new ClientError(403, "FORBIDDEN", "Only administrators may use this template name.");
	}
}
