/**
 * How long an artifact's record outlives its body, so downloads past retention answer 410 artifact_expired
 * (not 404) for a week before the record itself is dropped.
 */
export const ARTIFACT_TOMBSTONE_S = 7 * 86400;
