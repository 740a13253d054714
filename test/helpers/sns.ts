export * from "../../harness/sns";
