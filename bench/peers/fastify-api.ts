/**
 * The peer: what a team would build instead of the project, in one process.
 * fastify with JSON schemas; Bearer tokens verified with jose once and then cached
 * until they expire; actors in node:sqlite; POST /notifications validates the body
 * and adds a BullMQ job (Redis with appendfsync always makes it durable before the
 * 201); a BullMQ worker in the same process renders the same template and writes
 * one .eml per message through the same file provider the project uses.
 */
import { randomUUID } from "node:crypto";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { Queue, Worker, type Job } from "bullmq";
import Fastify, { type FastifyReply, type FastifyRequest } from "fastify";
import { importJWK, jwtVerify, type JWK } from "jose";
import { FileEmailProvider } from "../../lib/email/file";
import type { TemplateParts } from "../../lib/delivery";
import { CHANNELS, missingVariables, type NotificationDoc, PRIORITIES, priorityRank, render } from "../../lib/notifications";
// The same body as the project's; a type only, so none of the service's code loads here.
import type { CreateParams } from "../../services/notifications/notifications.service";
import { ACTOR_FIELDS, type ActorBody } from "../workload";
import { PEER_ALG, PEER_CLIENT_ID, PEER_ISSUER, PEER_QUEUE, readPeerEnv } from "./common";

/** The notification as the project stores it, minus what only its store and dispatcher need. */
type NotificationJob = Pick<NotificationDoc, "id" | "channel" | "to" | "priority" | "variables" | "metadata" | "createdBy" | "createdAt"> & { template: TemplateParts };

interface User {
	sub: string;
	exp: number;
}

const TOKEN_CACHE_MAX = 10000;
const CLOCK_TOLERANCE_SEC = 5;
const BEARER = /^Bearer ([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+)$/;

const settings = readPeerEnv(process.env);

// ---- auth: verified once, then a map lookup until the token expires

async function tokenVerifier(publicJwk: JWK) {
	const key = await importJWK(publicJwk, PEER_ALG);
	const cache = new Map<string, User>();
	return async (token: string): Promise<User | undefined> => {
		const hit = cache.get(token);
		if (hit && hit.exp > Date.now() / 1000) return hit;
		try {
			const { payload } = await jwtVerify(token, key, {
				issuer: PEER_ISSUER,
				algorithms: [PEER_ALG],
				clockTolerance: CLOCK_TOLERANCE_SEC,
				requiredClaims: ["exp", "sub", "token_use"]
			});
			if (payload.token_use !== "access" || payload.client_id !== PEER_CLIENT_ID) return undefined;
			const user = { sub: payload.sub!, exp: payload.exp! };
			if (cache.size >= TOKEN_CACHE_MAX) cache.delete(cache.keys().next().value!);
			cache.set(token, user);
			return user;
		} catch {
			return undefined;
		}
	};
}

// ---- schemas

const PROBLEM = { type: "object", properties: { code: { type: "string" }, message: { type: "string" } } } as const;
const TEMPLATE_PART = { type: "string", maxLength: 512 * 1024 } as const;

const createSchema = {
	body: {
		type: "object",
		additionalProperties: false,
		required: ["to"],
		properties: {
			channel: { enum: [...CHANNELS] },
			to: { type: "string", format: "email", maxLength: 254 },
			priority: { enum: [...PRIORITIES] },
			templateId: { type: "string", format: "uuid" },
			template: {
				type: "object",
				additionalProperties: false,
				required: ["subject"],
				properties: { subject: { type: "string", minLength: 1, maxLength: 998 }, html: TEMPLATE_PART, text: TEMPLATE_PART }
			},
			variables: { type: "object" },
			metadata: { type: "object" }
		}
	},
	response: {
		201: { type: "object", properties: { notificationId: { type: "string" }, status: { type: "string" } } },
		"4xx": PROBLEM
	}
} as const;

const actorSchema = {
	params: { type: "object", required: ["id"], properties: { id: { type: "string", format: "uuid" } } },
	response: {
		200: { type: "object", properties: Object.fromEntries(ACTOR_FIELDS.map(f => [f, { type: "string" }])) },
		"4xx": PROBLEM
	}
} as const;

// ---- the process

async function main(): Promise<void> {
	const db = new DatabaseSync(path.join(settings.dataDir, "peer.sqlite"));
	db.exec(`PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL;
		CREATE TABLE IF NOT EXISTS actors (id TEXT PRIMARY KEY, email TEXT NOT NULL UNIQUE, first_name TEXT NOT NULL,
			last_name TEXT NOT NULL, created_at TEXT NOT NULL, updated_at TEXT NOT NULL)`);
	const seed = JSON.parse(settings.seedActor) as ActorBody;
	db.prepare("INSERT OR IGNORE INTO actors VALUES (?, ?, ?, ?, ?, ?)").run(seed.actorId, seed.email, seed.firstName, seed.lastName, seed.createdAt, seed.updatedAt);
	const actorById = db.prepare(
		"SELECT id AS actorId, email, first_name AS firstName, last_name AS lastName, created_at AS createdAt, updated_at AS updatedAt FROM actors WHERE id = ?"
	);

	const connection = { host: settings.host, port: settings.redisPort, maxRetriesPerRequest: null };
	const queue = new Queue<NotificationJob>(PEER_QUEUE, {
		connection,
		// Completed jobs stay a day, as the project keeps its records, so a status can be looked up.
		defaultJobOptions: { attempts: 5, backoff: { type: "exponential", delay: 1000 }, removeOnComplete: { age: 24 * 3600 }, removeOnFail: false }
	});
	await queue.waitUntilReady();

	let worker: Worker<NotificationJob> | undefined;
	if (settings.worker) {
		const provider = new FileEmailProvider(path.join(settings.dataDir, "outbox"));
		worker = new Worker<NotificationJob>(
			PEER_QUEUE,
			async (job: Job<NotificationJob>) => {
				const n = job.data;
				const parts = render(n.template, n.variables);
				const sent = await provider.send({ notificationId: n.id, from: settings.mailFrom, to: n.to, subject: parts.subject!, html: parts.html, text: parts.text });
				return { messageId: sent.messageId };
			},
			{ connection, concurrency: settings.concurrency }
		);
		await worker.waitUntilReady();
	}

	const verify = await tokenVerifier(JSON.parse(settings.publicJwk) as JWK);
	// Unknown fields are refused, as the project's strict params do, not silently dropped.
	const app = Fastify({ logger: false, bodyLimit: 1024 * 1024, ajv: { customOptions: { removeAdditional: false } } });
	app.decorateRequest("user", null);
	const authenticate = async (req: FastifyRequest, reply: FastifyReply) => {
		const m = BEARER.exec(req.headers.authorization ?? "");
		const user = m ? await verify(m[1]!) : undefined;
		if (!user) return reply.code(401).send({ code: "UNAUTHORIZED", message: "The token is invalid or expired." });
		(req as FastifyRequest & { user: User }).user = user;
	};

	app.get<{ Params: { id: string } }>("/actors/:id", { schema: actorSchema, onRequest: authenticate }, async (req, reply) => {
		const actor = actorById.get(req.params.id);
		if (!actor) return reply.code(404).send({ code: "ACTOR_NOT_FOUND", message: "No actor has this id." });
		return actor;
	});

	app.post<{ Body: CreateParams }>("/notifications", { schema: createSchema, onRequest: authenticate }, async (req, reply) => {
		const b = req.body;
		const channel = b.channel ?? "EMAIL";
		if (channel !== "EMAIL") return reply.code(422).send({ code: "CHANNEL_NOT_SUPPORTED", message: `The ${channel} channel is not available yet.` });
		// No stored templates in the peer: a templateId cannot be found.
		if (!b.template) return reply.code(422).send({ code: "TEMPLATE_NOT_FOUND", message: "No template has this id." });
		if (b.templateId) return reply.code(400).send({ code: "VALIDATION_ERROR", message: "Give exactly one of templateId and template." });
		if (b.template.html == null && b.template.text == null) return reply.code(400).send({ code: "VALIDATION_ERROR", message: "A template needs html or text." });
		const variables = b.variables ?? {};
		const missing = missingVariables(b.template, variables);
		if (missing.length) return reply.code(422).send({ code: "TEMPLATE_VARIABLE_MISSING", message: `The template needs these variables: ${missing.join(", ")}.` });
		const priority = b.priority ?? "NORMAL";
		const job: NotificationJob = {
			id: randomUUID(),
			channel,
			to: b.to.trim(),
			priority,
			template: b.template,
			variables,
			createdBy: { kind: "user", id: (req as FastifyRequest & { user: User }).user.sub },
			createdAt: new Date().toISOString()
		};
		if (b.metadata) job.metadata = b.metadata;
		// BullMQ: lower number first, 0 would mean "no priority"; CRITICAL is 1.
		await queue.add("email", job, { jobId: job.id, priority: priorityRank(priority) + 1 });
		return reply.code(201).header("Location", `/notifications/${job.id}`).send({ notificationId: job.id, status: "QUEUED" });
	});

	app.get("/health", async () => ({ status: "ok" }));

	await app.listen({ port: settings.port, host: settings.host });

	const stop = async () => {
		await app.close();
		await worker?.close();
		await queue.close();
		db.close();
		process.exit(0);
	};
	process.once("SIGTERM", () => void stop());
	process.once("SIGINT", () => void stop());
}

main().catch(err => {
	process.stderr.write(`${(err as Error).stack ?? err}\n`);
	process.exit(1);
});
