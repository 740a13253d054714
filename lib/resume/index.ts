/**
 * Resume uploads: limits shared by the gateway (which parses the multipart body) and
 * the documents service (which enforces them on the stream it receives).
 */
export * from "./filename";
export * from "./sniff";
export * from "./upload";

/** The contract's limit on a resume's bytes. */
export const MAX_RESUME_BYTES = 10 * 1024 * 1024;

/** The multipart part that carries the file, and the field that names the candidate. */
export const RESUME_PART = "resume";
export const CANDIDATE_FIELD = "candidateId";

/**
 * A client that stalls, or a body cut short before the documents service listens,
 * leaves a part that never ends; without these bounds its half-written file would wait
 * forever. Idle: the longest pause between chunks; deadline: the whole upload.
 */
export const UPLOAD_IDLE_MS = 30_000;
export const UPLOAD_DEADLINE_MS = 120_000;
