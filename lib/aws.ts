/**
 * What every AWS client that sends on the platform's behalf shares: one attempt per
 * send (the notification queue retries, with backoff), a timeout, and the loopback
 * rule for credentials; and how an SDK error reads as a SendError.
 */
import { isLoopbackEndpoint } from "./crypto";
import { SendError } from "./errors/send-error";

export interface AwsSendClientOptions {
	region: string;
	endpoint?: string;
	timeoutMs: number;
}

/** A sending service's client options: SES and End User Messaging SMS both publish events through a configuration set. */
export interface AwsSenderOptions extends AwsSendClientOptions {
	configurationSet?: string;
}

function sendClientConfig(opts: AwsSendClientOptions) {
	return {
		region: opts.region,
		endpoint: opts.endpoint,
		maxAttempts: 1,
		requestHandler: { requestTimeout: opts.timeoutMs, connectionTimeout: Math.min(opts.timeoutMs, 3000) },
		// A local emulator or stand-in takes any credentials; real AWS (and a VPC endpoint) uses the default chain.
		...(isLoopbackEndpoint(opts.endpoint) ? { credentials: { accessKeyId: "local", secretAccessKey: "local" } } : {})
	};
}

/** A provider that sends through one AWS client, made with the settings above and destroyed on close. */
export abstract class AwsSender<C extends { destroy(): void }> {
	protected readonly client: C;

	constructor(
		protected readonly opts: AwsSenderOptions,
		makeClient: (config: ReturnType<typeof sendClientConfig>) => C
	) {
		this.client = makeClient(sendClientConfig(opts));
	}

	async close(): Promise<void> {
		this.client.destroy();
	}
}

const ACCOUNT_TROUBLE =
	/TooManyRequests|LimitExceeded|Throttl|SendingPaused|AccountSuspended|AccessDenied|ExpiredToken|UnrecognizedClient|InvalidSignature|SignatureDoesNotMatch|InvalidClientTokenId|Credentials|ServiceQuotaExceeded|ResourceNotFound/;

/**
 * Only the message's own faults are permanent: the names in `permanent`, and other
 * 4xx answers. Throttling, quotas, paused sending, a missing origination or
 * configuration set, and credential or signature trouble (expired keys, clock skew,
 * 403) are the account's, and pass once it is fixed; 5xx and network errors pass by
 * themselves.
 */
export function awsSendError(err: unknown, permanent: ReadonlySet<string>): SendError {
	if (err instanceof SendError) return err;
	const name = (err as Error).name || "AWS_ERROR";
	const status = (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
	const accountTrouble = ACCOUNT_TROUBLE.test(name) || status === 403;
	return new SendError(name, !accountTrouble && (permanent.has(name) || (status !== undefined && status >= 400 && status < 500)));
}
