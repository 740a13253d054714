/**
 * What other parts of the platform plug into notifications when the process starts
 * (lib/runtime.ts registers them), so that this folder imports none of them: the
 * account lifecycle's mails register the variables their links are made of at send
 * time, the actors' profiles tell a recipient's locale, and the template names only
 * administrators may use.
 */
import type { Principal } from "../auth/rules";
import { ClientError } from "../errors";
import type { SendTimeRef, NotificationDoc } from "./model";
import type { Variables } from "./render";

/** Makes a notification's send-time variables from its `sendTime` reference (never stored). */
export type SendTimeResolver = (ref: SendTimeRef, n: NotificationDoc) => Promise<Variables>;

/** The recipient actor's locale (BCP 47), or undefined when the recipient is no actor or has none. */
export type RecipientLocaleResolver = (n: Pick<NotificationDoc, "channel" | "to">) => Promise<string | undefined>;

interface ReservedNames {
	names: ReadonlySet<string>;
	mayUse: (caller: Principal) => boolean;
}

export class NotificationExtensions {
	private resolver: SendTimeResolver | null = null;
	private localeResolver: RecipientLocaleResolver | null = null;
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

	/** How the recipient actor's locale is found (the actors' profiles). */
	resolveRecipientLocale(resolver: RecipientLocaleResolver): void {
		this.localeResolver = resolver;
	}

	/** The recipient actor's locale, for a template with translations when the notification names none. */
	async recipientLocale(n: Pick<NotificationDoc, "channel" | "to">): Promise<string | undefined> {
		return this.localeResolver ? this.localeResolver(n) : undefined;
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
