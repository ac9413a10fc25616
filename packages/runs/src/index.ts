export { startPageRun, deliverPage, failPageRun, artifactUrl, PAGE_COST, type RunServices, type ExtraArtifact } from './page-runs.ts';
