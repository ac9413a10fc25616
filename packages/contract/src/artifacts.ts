/**
 * Every artifact key a result can list and the exact Content-Type its download answers with: one table, read by the
 * runs package (Markdown, HTML), the browser engine (screenshot, HAR) and the OpenAPI document.
 */
export const ARTIFACT_CONTENT_TYPES = {
  markdown: 'text/markdown; charset=utf-8',
  html: 'text/html; charset=utf-8',
  screenshot: 'image/png',
  har: 'application/json',
} as const;
export type ArtifactKey = keyof typeof ARTIFACT_CONTENT_TYPES;
