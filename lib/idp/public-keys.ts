/**
 * The embedded provider's public keys as a verifying node holds them: fetched from
 * where they are published (the auth service), never the private key, and cached.
 * A token naming a kid the cache lacks fetches again, at most once per cooldown, so
 * a key that started signing elsewhere is found while forged kids cannot hammer the
 * auth service. The cache is also renewed after `maxAgeMs`, so retired keys leave.
 */
import { createLocalJWKSet, errors, type JSONWebKeySet, type JWTVerifyGetKey, type LocalJWKSet } from "jose";

const UNKNOWN_KID_COOLDOWN_MS = 5_000;
/** As long as the JWKS answer may be cached (its Cache-Control max-age). */
const MAX_AGE_MS = 300_000;
const RETRY_AFTER_FAILURE_MS = 1_000;

/** The keys could not be obtained: a token checked now may be fine, so the answer is 503, not 401. */
export class KeysUnavailableError extends Error {
	readonly code = "ERR_KEYS_UNAVAILABLE";
	constructor(message: string) {
		super(message);
		this.name = "KeysUnavailableError";
	}
}

export interface KeyLog {
	info(message: string): void;
	warn(message: string): void;
}

export interface PublicKeySetOptions {
	/** Where the keys come from, e.g. the auth service's jwks action; `first` while no keys are held. */
	fetch: (first: boolean) => Promise<JSONWebKeySet>;
	/** Names the source in log lines and errors. */
	source: string;
	log?: KeyLog;
	now?: () => number;
	unknownKidCooldownMs?: number;
	maxAgeMs?: number;
	retryAfterFailureMs?: number;
}

function checked(jwks: unknown): JSONWebKeySet {
	const keys = (jwks as JSONWebKeySet | null)?.keys;
	if (!Array.isArray(keys) || keys.length === 0) throw new Error("the answer holds no keys");
	// A verifier never holds a private key, whatever the source sends.
	if (keys.some(k => k === null || typeof k !== "object" || "d" in k)) throw new Error("the answer holds something other than public keys");
	return { keys };
}

export class PublicKeySet {
	private keys: LocalJWKSet | null = null;
	private fetchedAt = 0;
	private attemptedAt = Number.NEGATIVE_INFINITY;
	private failure: KeysUnavailableError | null = null;
	private pending: Promise<LocalJWKSet> | null = null;
	private readonly now: () => number;

	constructor(private readonly opts: PublicKeySetOptions) {
		this.now = opts.now ?? Date.now;
	}

	/** The next verification fetches the keys again, without waiting for a cooldown (a key was rotated). */
	invalidate(): void {
		this.fetchedAt = Number.NEGATIVE_INFINITY;
		this.attemptedAt = Number.NEGATIVE_INFINITY;
		this.failure = null;
	}

	/** Whether keys were fetched (they are kept, even when old, while renewals fail). */
	get held(): boolean {
		return this.keys !== null;
	}

	/** Resolves once keys are held (fetching them if none are); KeysUnavailableError saying why otherwise. */
	async ready(): Promise<void> {
		await this.current();
	}

	/** For jose's jwtVerify. */
	readonly getKey: JWTVerifyGetKey = async (header, token) => {
		const keys = await this.current();
		try {
			return await keys(header, token);
		} catch (err) {
			const cooldown = this.opts.unknownKidCooldownMs ?? UNKNOWN_KID_COOLDOWN_MS;
			if (!(err instanceof errors.JWKSNoMatchingKey) || this.now() - this.attemptedAt < cooldown) throw err;
			return (await this.refresh())(header, token);
		}
	};

	/** The held keys, renewed when old; old keys are kept when the renewal fails. */
	private async current(): Promise<LocalJWKSet> {
		if (this.keys && this.now() - this.fetchedAt < (this.opts.maxAgeMs ?? MAX_AGE_MS)) return this.keys;
		try {
			return await this.refresh();
		} catch (err) {
			if (this.keys) return this.keys;
			throw err;
		}
	}

	/** One fetch at a time, and none for a while after one failed. */
	private refresh(): Promise<LocalJWKSet> {
		if (this.pending) return this.pending;
		if (this.failure && this.now() - this.attemptedAt < (this.opts.retryAfterFailureMs ?? RETRY_AFTER_FAILURE_MS)) {
			return Promise.reject(this.failure);
		}
		this.attemptedAt = this.now();
		this.pending = this.opts
			.fetch(this.keys === null)
			.then(jwks => {
				this.keys = createLocalJWKSet(checked(jwks));
				this.fetchedAt = this.now();
				if (this.failure) this.opts.log?.info(`The signing keys are available again from ${this.opts.source}.`);
				this.failure = null;
				return this.keys;
			})
			.catch((err: unknown) => {
				const failure = new KeysUnavailableError(`The signing keys could not be obtained from ${this.opts.source}: ${(err as Error).message}`);
				// One line per distinct reason: a node retrying every second does not flood the log.
				if (failure.message !== this.failure?.message) this.opts.log?.warn(failure.message);
				this.failure = failure;
				throw failure;
			})
			.finally(() => (this.pending = null));
		return this.pending;
	}
}
