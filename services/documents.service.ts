/**
 * Resumes. The gateway parses the multipart body and calls `upload` with the file as
 * ctx.stream; the bytes are checked while they stream into file storage, and a record
 * in the store describes them. An upload that fails for any reason (size, type,
 * missing part or candidate, a broken stream, a stop of the node) leaves neither a
 * file nor a record. During an orderly stop (lib/process/shutdown.ts) new uploads are refused
 * and those under way finish within the grace or end with 503 SHUTTING_DOWN.
 */
import { randomUUID } from "node:crypto";
import type { Readable } from "node:stream";
import type { Context, ServiceSchema, ServiceSettingSchema } from "moleculer";
import { badRequest, forbidden, notFound, shuttingDown } from "../lib/errors";
import type { HttpMeta } from "../lib/http/meta";
import {
	CANDIDATE_FIELD,
	contentDisposition,
	MAX_RESUME_BYTES,
	RESUME_CONTENT_TYPES,
	RESUME_PART,
	resumeFilename,
	ResumeUpload,
	UPLOAD_DEADLINE_MS,
	UPLOAD_IDLE_MS
} from "../lib/resume";
import { InFlight } from "../lib/process/shutdown";
import { principalOf } from "../middlewares/auth.middleware";
import { RuntimeMixin, type RuntimeMethods } from "../mixins/runtime.mixin";
import { ref } from "../lib/openapi/schemas";

export interface ResumeMetadata {
	documentId: string;
	candidateId: string;
	filename: string;
	contentType: string;
	size: number;
	createdAt: string;
}

/** What moleculer-web passes for one file part: the part's properties and the fields sent before it. */
export interface UploadParams {
	candidateId?: string;
	resume?: string;
	$fieldname?: string;
	$filename?: string;
	$encoding?: string;
	$mimetype?: string;
}

export interface ResumeStoredEvent {
	documentId: string;
	candidateId: string;
	size: number;
	contentType: string;
}

interface DocumentDoc extends Omit<ResumeMetadata, "documentId"> {
	id: string;
	fileId: string;
	/** The principal that uploaded it: a user's sub or "service:<id>". */
	uploadedBy: string;
}

interface DocumentsMethods extends RuntimeMethods {
	admitUpload(ctx: Context<UploadParams>, upload: ResumeUpload | null): Promise<string>;
	storeResume(ctx: Context<UploadParams, HttpMeta>, upload: ResumeUpload, candidateId: string): Promise<ResumeMetadata>;
	readable(ctx: Context, id: string): Promise<DocumentDoc>;
	removeAbandonedFiles(): Promise<void>;
}

interface DocumentsState {
	/** Uploads under way: an orderly stop waits for them, and ends those left when its grace runs out. */
	uploads: InFlight<ResumeUpload>;
	/** The second look for partial files a crash left shortly before this start. */
	sweepTimer?: NodeJS.Timeout;
}

export interface DocumentsSettings extends ServiceSettingSchema {
	/** Longest pause between two chunks of an upload (lib/resume UPLOAD_IDLE_MS). */
	uploadIdleMs: number;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const partName = { type: "string", optional: true, max: 1024 } as const;

const toMetadata = ({ id, candidateId, filename, contentType, size, createdAt }: DocumentDoc): ResumeMetadata => ({
	documentId: id,
	candidateId,
	filename,
	contentType,
	size,
	createdAt
});

/**
 * A partial file no write has touched for this long belongs to no upload: a live one
 * writes at least once per idle limit, or fails and removes its file.
 */
const abandonedAfterMs = (settings: DocumentsSettings) => 2 * settings.uploadIdleMs;

/** Plain text is served with its charset: the upload was checked to be UTF-8. */
const responseType = (contentType: string) => (contentType === RESUME_CONTENT_TYPES.txt ? `${contentType}; charset=utf-8` : contentType);

const DocumentsService: ServiceSchema<DocumentsSettings, DocumentsMethods, DocumentsState> = {
	name: "documents",
	mixins: [RuntimeMixin],
	settings: { uploadIdleMs: UPLOAD_IDLE_MS },
	actions: {
		upload: {
			visibility: "published",
			auth: ["user", "service"],
			openapi: {
				summary: "Upload a resume",
				description: "multipart/form-data with one file part named `resume` (PDF, DOC, DOCX, RTF or UTF-8 text, at most 10 MiB) and `candidateId`.",
				success: { status: 201, description: "Stored.", schema: ref("ResumeMetadata") },
				problems: ["FORBIDDEN"]
			},
			params: {
				candidateId: { type: "string", optional: true, max: 100 },
				// A 'resume' sent as a text field instead of a file: answered as a missing file.
				resume: { type: "string", optional: true },
				$fieldname: partName,
				$filename: partName,
				$encoding: partName,
				$mimetype: partName,
				$$strict: true
			},
			async handler(ctx: Context<UploadParams, HttpMeta>): Promise<ResumeMetadata> {
				const source = ctx.stream as Readable | null;
				// Watching starts before the first await: the part can break off at any time.
				const upload = source
					? new ResumeUpload(source, { maxBytes: MAX_RESUME_BYTES, idleMs: this.settings.uploadIdleMs, deadlineMs: UPLOAD_DEADLINE_MS })
					: null;
				if (upload) this.uploads.add(upload);
				try {
					if (this.runtime().shutdown.stopping) throw shuttingDown();
					const candidateId = await this.admitUpload(ctx, upload);
					return await this.storeResume(ctx, upload!, candidateId);
				} finally {
					upload?.dispose();
					// Only now: a failed upload's partial file is gone by the time storeResume throws.
					if (upload) this.uploads.delete(upload);
					// Whatever happened, the rest of the part is read and dropped, so the request can finish.
					if (source && !source.readableEnded) source.resume();
				}
			}
		},
		get: {
			visibility: "published",
			auth: ["user", "service"],
			openapi: {
				summary: "Read a resume's metadata",
				success: { status: 200, description: "The resume's metadata.", schema: ref("ResumeMetadata") },
				problems: ["DOCUMENT_NOT_FOUND"]
			},
			params: { id: { type: "uuid" }, $$strict: true },
			async handler(ctx: Context<{ id: string }>): Promise<ResumeMetadata> {
				return toMetadata(await this.readable(ctx, ctx.params.id));
			}
		},
		content: {
			visibility: "published",
			auth: ["user", "service"],
			openapi: {
				summary: "Download a resume",
				success: {
					status: 200,
					description: "The file as uploaded.",
					contentType: "application/octet-stream",
					schema: { type: "string", contentMediaType: "application/octet-stream" },
					headers: { "Content-Disposition": "attachment, with the stored filename." }
				},
				problems: ["DOCUMENT_NOT_FOUND"]
			},
			params: { id: { type: "uuid" }, $$strict: true },
			async handler(ctx: Context<{ id: string }, HttpMeta>): Promise<Readable> {
				const doc = await this.readable(ctx, ctx.params.id);
				const stream = await this.runtime().files().get(doc.fileId);
				if (!stream) throw new Error(`The file of document ${doc.id} is missing from file storage`);
				ctx.meta.$responseType = responseType(doc.contentType);
				ctx.meta.$responseHeaders = {
					"Content-Disposition": contentDisposition(doc.filename),
					"Content-Length": String(doc.size),
					// A resume is personal data: no shared cache may keep it.
					"Cache-Control": "private, no-store"
				};
				return stream;
			}
		}
	},
	methods: {
		/** Checks the parts, the caller's right and the candidate before a byte is stored; returns the candidate. */
		async admitUpload(ctx: Context<UploadParams>, upload: ResumeUpload | null): Promise<string> {
			const { $fieldname, candidateId } = ctx.params;
			if (!upload || $fieldname === undefined) {
				throw badRequest("The resume file is missing.", [{ field: RESUME_PART, message: "A file part named 'resume' is required." }]);
			}
			if ($fieldname !== RESUME_PART) {
				throw badRequest("Unexpected file part.", [{ field: RESUME_PART, message: "The file part must be named 'resume'." }]);
			}
			if (!candidateId) {
				// moleculer-web hands over only the fields that precede the file.
				throw badRequest("The candidateId field is missing.", [
					{ field: CANDIDATE_FIELD, message: "The 'candidateId' field is required and must come before the 'resume' part." }
				]);
			}
			if (!UUID.test(candidateId)) {
				throw badRequest("The candidateId field is invalid.", [{ field: CANDIDATE_FIELD, message: "The 'candidateId' field must be a UUID." }]);
			}
			const principal = principalOf(ctx)!;
			if (principal.kind === "user" && !principal.isAdmin && principal.sub !== candidateId) {
				throw forbidden("FORBIDDEN", "Users may upload only their own resume.");
			}
			// The candidate check is this service's own precondition, so it runs under the
			// service's identity instead of depending on what the caller's token may read.
			await this.callAsService(ctx, "actors.get", { id: candidateId });
			return candidateId;
		},

		/** Streams the part into file storage, then records it; a failed record removes the file again. */
		async storeResume(ctx: Context<UploadParams, HttpMeta>, upload: ResumeUpload, candidateId: string): Promise<ResumeMetadata> {
			const files = this.runtime().files();
			const storing = files.put(upload.guard);
			upload.start();
			const stored = await storing;
			const kind = upload.kind!;
			const principal = principalOf(ctx)!;
			const doc: DocumentDoc = {
				id: randomUUID(),
				candidateId,
				filename: resumeFilename(ctx.params.$filename, kind),
				contentType: RESUME_CONTENT_TYPES[kind],
				size: stored.size,
				fileId: stored.fileId,
				createdAt: new Date().toISOString(),
				uploadedBy: principal.kind === "user" ? principal.sub : `service:${principal.serviceId}`
			};
			try {
				await this.runtime().store().collection<DocumentDoc>("documents").insert(doc);
			} catch (err) {
				await files.remove(stored.fileId);
				throw err;
			}
			ctx.meta.$statusCode = 201;
			ctx.meta.$location = `/resumes/${doc.id}`;
			const event: ResumeStoredEvent = { documentId: doc.id, candidateId, size: doc.size, contentType: doc.contentType };
			// The resume is stored either way; a lost event must not turn that into an error.
			await ctx.emit("documents.resumeStored", event).catch(err => this.logger.warn("Could not emit documents.resumeStored", { documentId: doc.id, err }));
			return toMetadata(doc);
		},

		/** The document when the caller may read it; otherwise 404 whether or not it exists. */
		async readable(ctx: Context, id: string): Promise<DocumentDoc> {
			const doc = await this.runtime().store().collection<DocumentDoc>("documents").get(id);
			const principal = principalOf(ctx)!;
			const allowed = doc && (principal.kind === "service" || principal.isAdmin || principal.sub === doc.candidateId);
			if (!doc || !allowed) throw notFound("DOCUMENT_NOT_FOUND", "No resume has this id.");
			return doc;
		},

		/** Partial files a crash left behind; never one an upload under way (of this node or another) still writes. */
		async removeAbandonedFiles(): Promise<void> {
			const files = this.runtime().files();
			try {
				const removed = (await files.removeAbandoned?.(abandonedAfterMs(this.settings))) ?? 0;
				if (removed > 0) this.logger.info("Removed partial files of uploads a crash cut off", { removed });
			} catch (err) {
				this.logger.warn("Could not remove partial files of cut-off uploads", { err });
			}
		}
	},
	created() {
		this.uploads = new InFlight<ResumeUpload>(upload => upload.cancel(shuttingDown()));
	},
	async started() {
		this.runtime().shutdown.add(this.uploads);
		await this.removeAbandonedFiles();
		// A crash just before this start left files too recent to tell from live uploads: they are looked at again once they cannot be.
		this.sweepTimer = setTimeout(() => void this.removeAbandonedFiles(), abandonedAfterMs(this.settings)).unref();
	},
	stopped() {
		clearTimeout(this.sweepTimer);
		this.runtime().shutdown.delete(this.uploads);
	}
};

export default DocumentsService;
