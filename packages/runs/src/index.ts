export { startPageRun, deliverPage, failPageRun, artifactUrl, PAGE_COST, type RunServices } from './page-runs.ts';
