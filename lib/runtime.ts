/**
 * What a broker's services share in one process: configuration (with its secrets),
 * the store, file storage, the key-value store, the identity provider, the token verifier and the
 * service-token cache. It hangs off the broker rather than service settings, because
 * settings travel to every node. Everything is created on first use, so a node
 * opens only what its services need: verifying tokens of the embedded provider takes
 * its public keys from the auth service, never the provider or its private key.
 */
import { setTimeout as sleep } from "node:timers/promises";
import type { ServiceBroker } from "moleculer";
import type { JSONWebKeySet } from "jose";
import type { Config, ServiceName } from "./config";
import { KeysUnavailableError, PublicKeySet } from "./idp/public-keys";
import { ServiceTokenCache } from "./auth/service-tokens";
import type { Principal } from "./auth/rules";
import { TokenVerifier } from "./auth/verifier";
import { fileOutboxes } from "./process/data-dir";
import { createFileStorage, type FileStorage } from "./files";
import { probeDirectory } from "./files/disk";
import { createIdentityProvider, type IdentityProvider } from "./idp";
import { AuthSessions } from "./mfa/sessions";
import { embeddedTrust } from "./idp/embedded";
import { createKeyValue, type KeyValue } from "./kv";
import type { RedisKeyValue } from "./kv/redis";
import { STATUS_EVENTS, type StatusEvent, type StatusEvents } from "./delivery";
import { INBOX_CHANGED, type InboxChange } from "./inbox";
import { registerAccountMail } from "./accounts/lifecycle-mail";
import { OneTimeCodes } from "./accounts/otp";
import { AuditLog } from "./audit";
import { registerRecipientLocale } from "./accounts/recipient-locale";
import { DispatcherWakes, NotificationExtensions, NotificationIntake, StatusPublisher } from "./notifications";
import { endpointsChanged, enqueueDeliveries } from "./outbound/deliveries";
import type { Agent } from "node:https";
import { Shutdown } from "./process/shutdown";
import { SnsVerifier } from "./sns/verify";
import { StorageHealth } from "./process/storage-health";
import { UnsubscribeKeys } from "./unsubscribe/keys";
import { createStore, type Store } from "./store";
import { attachSessionEnds } from "./accounts/end-sessions";
import { DENY_MARGIN_SEC, SESSIONS_DENIED_EVENT, SessionDenyList, type Denial } from "./sessions/deny-list";
import { SessionRecords } from "./sessions/records";

/** Services that keep nothing in the store: a node running only these never opens it. */
const STORELESS: readonly ServiceName[] = ["api-gateway"];

/** The action that publishes the embedded provider's public keys. */
const JWKS_ACTION = "auth.jwks";
const KEY_FETCH_TIMEOUT_MS = 5000;
/** The action that answers the ended sessions a node starting without a store must refuse. */
const DENIALS_ACTION = "auth.deniedSessions";
/** How often a node waiting to hear of the auth service looks again. */
const JWKS_WAIT_INTERVAL_MS = 25;

function once<T>(make: () => T): { get: () => T; peek: () => T | undefined } {
	let value: T | undefined;
	let made = false;
	return {
		get: () => {
			if (!made) {
				value = make();
				made = true;
			}
			return value as T;
		},
		peek: () => value
	};
}

/** Cognito: the platform's record of each session (its tokens carry no sid), its refresh tokens sealed with IDP_KEY_ENCRYPTION_KEY where set. */
export const authSessionsOf = (config: Config) => (store: Store) => new AuthSessions(store, Date.now, config.idp.keyEncryptionKey);

export class Runtime {
	private readonly storeRef = once<Store>(() => {
		return createStore(this.config, err => this.storageHealth.failed(err, "store"));
	});
	private readonly filesRef = once<FileStorage>(() => createFileStorage(this.config));
	private readonly kvRef = once<KeyValue>(() => createKeyValue(this.config));
	private readonly idpRef = once<Promise<IdentityProvider>>(() => {
		const p = createIdentityProvider(this.config, () => this.store(), this.broker?.getLogger("idp"), authSessionsOf(this.config));
		p.then(
			idp => attachSessionEnds(idp, { open: (sub, keep) => this.sessions().openIds(sub, keep), ended: (sub, sids, keys) => this.sessionsEnded(sub, sids, keys) }),
			() => undefined
		);
		return p;
	});
	private readonly publicKeysRef = once<PublicKeySet>(
		() => new PublicKeySet({ fetch: first => this.fetchPublicKeys(first), source: JWKS_ACTION, log: this.broker?.getLogger("keys") })
	);
	private readonly verifierRef = once<Promise<TokenVerifier>>(async () => {
		const trust = this.config.idp.kind === "cognito" ? (await this.idp()).trust() : embeddedTrust(this.config.idp, this.config.publicUrl, this.publicKeys().getKey);
		// The sessions ended before this node started are refused from its first request on (bounded: the broadcasts keep coming meanwhile).
		await Promise.race([this.loadDenials(), sleep(KEY_FETCH_TIMEOUT_MS, undefined, { ref: false })]);
		this.madeVerifier = new TokenVerifier({ ...trust, denied: this.deniedSessions });
		return this.madeVerifier;
	});
	private madeVerifier: TokenVerifier | undefined;
	/** Ended sessions whose access tokens this node refuses (lib/sessions/deny-list.ts). */
	readonly deniedSessions = new SessionDenyList();
	private sessionRecords: SessionRecords | undefined;
	private denialsLoaded = false;
	readonly serviceTokens = new ServiceTokenCache(() => this.idp());
	/**
	 * The status events this process records, as they become durable. Its subscribers
	 * (registered in the constructor) tell every gateway node (live streams) and store
	 * the owner's webhook deliveries.
	 */
	readonly statusEvents = new StatusPublisher();
	/** What other parts plug into notifications: the account mails' send-time links and reserved template names. */
	readonly notificationExtensions = new NotificationExtensions();
	/** The one way this process tells dispatchers that something was queued, whoever queued it. */
	private readonly wakes = new DispatcherWakes(urgent => void this.broker?.emit("notifications.queued", urgent ? { urgent: true } : {}));
	private readonly intakeRef = once<NotificationIntake>(
		() =>
			new NotificationIntake(this.store(), this.statusEvents, {
				onQueued: urgent => this.wakes.wake(urgent),
				sendTimeVariables: () => this.notificationExtensions.sendTimeVariableNames,
				warn: (message, fields) => this.broker?.getLogger("notifications").warn(message, fields)
			})
	);
	private readonly unsubscribeKeysRef = once<UnsubscribeKeys>(() => new UnsubscribeKeys(() => this.store(), this.config));
	/** The process's orderly stop (lib/process/shutdown.ts): its parts register what the stop must wait for. */
	readonly shutdown = new Shutdown();
	/** Whether this node's store and files take writes (lib/process/storage-health.ts); readiness asks it. */
	readonly storageHealth: StorageHealth;
	/** False while the NATS connection is down (see middlewares/transport-health.middleware.ts). */
	transportUp = true;
	private sns: SnsVerifier | null = null;
	private snsAgent: Agent | undefined;
	private broker: ServiceBroker | null = null;
	/** Events told since the last broadcast, sent together at the end of the current microtasks (announce). */
	private announcing: StatusEvent[] | null = null;
	private otpRef: OneTimeCodes | undefined;

	constructor(readonly config: Config) {
		this.storageHealth = new StorageHealth(() => this.broker?.getLogger("storage"));
		this.statusEvents.subscribe(events => this.announce(events));
		registerAccountMail(this.notificationExtensions, () => this.store(), config, () => this.otp());
		registerRecipientLocale(this.notificationExtensions, () => this.store());
	}

	/** Where notifications are accepted in this process (the notifications service, the account lifecycle's mails). */
	notificationIntake(): NotificationIntake {
		return this.intakeRef.get();
	}

	/** One-time codes and magic links (lib/accounts/otp.ts): the auth service's routes and the dispatcher's send-time codes share it. */
	otp(): OneTimeCodes {
		return (this.otpRef ??= new OneTimeCodes({
			store: () => this.store(),
			idp: () => this.idp(),
			intake: () => this.notificationIntake(),
			audit: new AuditLog(
				() => this.store(),
				(m, f) => this.broker?.getLogger("audit").warn(m, f)
			),
			fallbackAfterSec: this.config.accounts.otpFallbackAfterSec,
			signup: this.config.accounts.otpSignup
		}));
	}

	/** Whether a service of this node keeps data in the store. */
	usesStore(): boolean {
		return this.config.services.some(s => !STORELESS.includes(s));
	}

	store(): Store {
		return this.storeRef.get();
	}

	/** The keys one-click unsubscribe links are signed and checked with (lib/unsubscribe). */
	unsubscribeKeys(): UnsubscribeKeys {
		return this.unsubscribeKeysRef.get();
	}

	files(): FileStorage {
		return this.filesRef.get();
	}

	/**
	 * After a storage fault, a real write to the store, the files and the file outboxes,
	 * which ends the fault when all succeed and throws while one cannot be made; nothing
	 * without a fault. Readiness and the dispatcher's wait for the disk
	 * (lib/notifications/dispatcher.ts) ask it.
	 */
	probeStorage(): Promise<void> {
		const outboxes = fileOutboxes(this.config).map(dir => ({ probeWrite: () => probeDirectory(dir) }));
		return this.storageHealth.check([this.store(), this.files(), ...outboxes]);
	}

	kv(): KeyValue {
		return this.kvRef.get();
	}

	idp(): Promise<IdentityProvider> {
		return this.idpRef.get();
	}

	verifier(): Promise<TokenVerifier> {
		return this.verifierRef.get();
	}

	/** What the platform keeps about each session (lib/sessions/records.ts). */
	sessions(): SessionRecords {
		return (this.sessionRecords ??= new SessionRecords(() => this.store(), this.config.idp.refreshTokenTtl));
	}

	/** How long an ended session's sid is refused: the longest an access token of it can live (Cognito's may live a day). */
	private denySeconds(): number {
		return (this.config.idp.kind === "cognito" ? Math.max(this.config.idp.accessTokenTtl, 86_400) : this.config.idp.accessTokenTtl) + DENY_MARGIN_SEC;
	}

	/**
	 * Sessions ended on this node: marked ended, refused here at once, recorded for
	 * nodes that start later, and told to every node over the transporter (and Redis).
	 */
	async sessionsEnded(sub: string, sids: readonly string[], keys: readonly string[] = []): Promise<void> {
		if (sids.length === 0) return;
		const until = Date.now() + this.denySeconds() * 1000;
		// Cognito's access tokens carry no sid: the keys that name them (origin_jti, jti) are denied beside it.
		const denied = [...new Set([...sids, ...keys])];
		const denials: Denial[] = denied.map(sid => ({ sid, until }));
		this.deniedSessions.add(denials);
		const expiresAt = new Date(until).toISOString();
		const col = this.store().collection<{ id: string; until: number; expiresAt: string }>("session_denials");
		for (const sid of denied) {
			if ((await col.updateMany({ id: sid }, { $set: { until, expiresAt } })) === 0) await col.insert({ id: sid, until, expiresAt }).catch(() => undefined);
		}
		await this.sessions().ended(sub, sids);
		const broker = this.broker;
		if (broker) await broker.broadcast(SESSIONS_DENIED_EVENT, { denials }).catch((err: Error) => broker.getLogger("sessions").warn("Announcing ended sessions failed", { error: err.message }));
		this.publishDenials(denials);
	}

	/** Ended sessions another node announced. */
	sessionsDenied(payload: { denials?: Denial[] }): void {
		if (Array.isArray(payload?.denials)) this.deniedSessions.add(payload.denials);
	}

	/** The denials still in force, for a node that starts (auth.deniedSessions) and for this node's own start. */
	async storedDenials(): Promise<Denial[]> {
		const rows = await this.store().collection<{ id: string; until: number; expiresAt: string }>("session_denials").find({ expiresAt: { $gt: new Date().toISOString() } });
		return rows.map(r => ({ sid: r.id, until: r.until }));
	}

	/** At start: the denials recorded before this node came up, from the store or, on a node without one, from the auth service. */
	private loadDenials(): Promise<void> {
		if (this.denialsLoaded) return Promise.resolve();
		this.denialsLoaded = true;
		this.subscribeDenials();
		const log = this.broker?.getLogger("sessions");
		const load = async (): Promise<void> => {
			if (this.usesStore()) {
				this.deniedSessions.add(await this.storedDenials());
				return;
			}
			const broker = this.broker;
			if (!broker) return;
			const deadline = Date.now() + 30_000;
			while (!broker.registry.actions.isAvailable(DENIALS_ACTION)) {
				if (Date.now() > deadline) throw new Error(`no node offering ${DENIALS_ACTION} was heard of`);
				await sleep(100, undefined, { ref: false });
			}
			const res = await broker.call<{ denials: Denial[] }, Record<string, never>>(DENIALS_ACTION, {}, { timeout: KEY_FETCH_TIMEOUT_MS });
			this.deniedSessions.add(res.denials);
		};
		return load().catch((err: Error) => log?.warn("The ended sessions recorded before this node started could not be loaded", { error: err.message }));
	}

	/** With Redis: denials are also published there, for nodes that share Redis but no transporter. */
	private redisSubscriber: { quit(): Promise<unknown> } | undefined;
	private denialChannel(): string {
		return `${this.config.namespace}:sessions-denied`;
	}
	private publishDenials(denials: Denial[]): void {
		const kv = this.config.redisUrl ? this.kv() : null;
		if (kv?.kind !== "redis") return;
		// ping waits for the connection (the client keeps no offline queue).
		const message = JSON.stringify({ denials });
		kv.ping()
			.then(() => (kv as RedisKeyValue).client.publish(this.denialChannel(), message))
			.catch((err: Error) => this.broker?.getLogger("sessions").warn("Publishing ended sessions on Redis failed", { error: err.message }));
	}
	private subscribeDenials(): void {
		const kv = this.config.redisUrl ? this.kv() : null;
		if (kv?.kind !== "redis") return;
		// A connection of its own in subscriber mode, which queues the SUBSCRIBE until it is connected (and again on each reconnect).
		const sub = (kv as RedisKeyValue).client.duplicate({ enableOfflineQueue: true, commandTimeout: undefined });
		sub.on("error", () => undefined);
		sub.on("message", (_channel: string, message: string) => {
			try {
				this.sessionsDenied(JSON.parse(message) as { denials?: Denial[] });
			} catch {
				// Not ours.
			}
		});
		sub.subscribe(this.denialChannel()).catch(() => undefined);
		this.redisSubscriber = sub;
	}

	/** The principal of a token this node verified before and that has not expired, without waiting; else undefined. */
	cachedPrincipal(token: string): Principal | undefined {
		return this.madeVerifier?.cached(token);
	}

	/** The embedded provider's public keys as this node holds them (readiness asks whether it has them). */
	publicKeys(): PublicKeySet {
		return this.publicKeysRef.get();
	}

	/** A signing key was rotated somewhere: keys held here are fetched again at the next verification. */
	keysRotated(): void {
		this.publicKeysRef.peek()?.invalidate();
	}

	/** A webhook endpoint was created or deleted somewhere: this node's fan-out reads the endpoints again. */
	webhookEndpointsChanged(): void {
		const store = this.storeRef.peek();
		if (store) endpointsChanged(store);
	}

	/** Whether this node can check tokens now (readiness asks): never waits for the auth service to be heard of. */
	async keysReady(): Promise<void> {
		const keys = this.publicKeys();
		if (!keys.held && !this.broker?.registry.actions.isAvailable(JWKS_ACTION)) {
			// The fetch goes on without the probe: it takes the keys as soon as the service is
			// heard of, or logs why not once its wait ends.
			keys.ready().catch(() => undefined);
			throw new KeysUnavailableError(`The signing keys could not be obtained from ${JWKS_ACTION}: no node offers it`);
		}
		await keys.ready();
	}

	private async fetchPublicKeys(first: boolean): Promise<JSONWebKeySet> {
		if (!this.broker) throw new Error("no broker is attached to this runtime");
		const timeout = Math.min(this.config.requestTimeoutMs, KEY_FETCH_TIMEOUT_MS);
		// Nodes that start together hear of each other up to a second apart (each announces
		// its services once they have started), so a peer may already call this node before
		// this node has heard of the auth service. The first fetch waits for it, within the
		// same bound, instead of answering 503 and holding that failure for a second. Later
		// fetches never wait: the held keys keep serving while the auth service is away.
		// (Moleculer's waitForServices would log each wait at info and look for the service,
		// not the action this call needs.)
		if (first) {
			const deadline = Date.now() + timeout;
			while (!this.broker.registry.actions.isAvailable(JWKS_ACTION)) {
				if (Date.now() >= deadline) throw new Error(`no node offering it was heard of within ${timeout} ms`);
				await sleep(JWKS_WAIT_INTERVAL_MS, undefined, { ref: false });
			}
		}
		return this.broker.call<JSONWebKeySet, Record<string, never>>(JWKS_ACTION, {}, { timeout });
	}

	/** The broker this runtime's keys are fetched through (attachRuntime sets it). */
	attach(broker: ServiceBroker): void {
		this.broker = broker;
	}

	/**
	 * Events this process recorded, as they become durable: every gateway node hears of
	 * them (its live streams follow them). Events recorded in the same moment (the
	 * accepts of one group commit, each telling its own) go out together, at the end of
	 * the current microtasks: one broadcast and one delivery fan-out for all of them
	 * instead of one each (about a tenth of an accept's work was these, per accept).
	 */
	private announce(events: StatusEvent[]): void {
		if (!this.broker) return;
		if (this.announcing) {
			this.announcing.push(...events);
			return;
		}
		this.announcing = [...events];
		queueMicrotask(() => {
			const all = this.announcing!;
			this.announcing = null;
			this.fanOut(all);
		});
	}

	/** A change to an actor's inbox made on this node: every gateway node hears of it (its inbox streams follow it). */
	announceInbox(change: InboxChange): void {
		const broker = this.broker;
		if (!broker) return;
		broker.broadcast(INBOX_CHANGED, change).catch((err: Error) => broker.getLogger("events").warn("Announcing an inbox change failed", { actorId: change.actorId, error: err.message }));
	}

	private fanOut(events: StatusEvent[]): void {
		const broker = this.broker;
		if (!broker) return;
		const log = broker.getLogger("events");
		const payload: StatusEvents = { events };
		broker.broadcast(STATUS_EVENTS, payload).catch((err: Error) => log.warn("Announcing status events failed", { notificationIds: events.map(e => e.notificationId), error: err.message }));
		// Stored by the node that recorded the events; should it die before this write, an
		// outbound node's recovery sweep (lib/outbound/recovery.ts) stores them instead.
		enqueueDeliveries(this.store(), events).then(
			added => {
				if (added > 0) void broker.emit("outbound.enqueued", {});
			},
			(err: Error) => log.error("Storing webhook deliveries failed", { notificationIds: events.map(e => e.notificationId), error: err.message })
		);
	}

	snsVerifier(): SnsVerifier {
		const w = this.config.webhooks;
		this.sns ??= new SnsVerifier({ hostPattern: w.certHostPattern, topicArns: w.topicArns, agent: this.snsAgent });
		return this.sns;
	}

	/** For tests: trust their own certificate authority when fetching SNS certificates. */
	useSnsAgent(agent: Agent): void {
		this.snsAgent = agent;
		this.sns = null;
	}

	async close(): Promise<void> {
		this.wakes.stop();
		const idp = this.idpRef.peek();
		if (idp) await (await idp.catch(() => null))?.close();
		await this.redisSubscriber?.quit().catch(() => undefined);
		await this.kvRef.peek()?.close();
		await this.filesRef.peek()?.close();
		await this.storeRef.peek()?.close();
	}
}

const runtimes = new WeakMap<ServiceBroker, Runtime>();

export function attachRuntime(broker: ServiceBroker, runtime: Runtime): void {
	runtimes.set(broker, runtime);
	runtime.attach(broker);
}

export function runtimeOf(broker: ServiceBroker): Runtime {
	const r = runtimes.get(broker);
	if (!r) throw new Error("No runtime attached to this broker: create it with createBroker()");
	return r;
}
