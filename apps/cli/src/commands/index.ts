import type { CliModule } from '../command-spec.ts';
import { adminGroup } from './admin.ts';
import { crawlCommand, resumeCommand } from './crawl.ts';
import { fetchCommand } from './fetch.ts';
import { trendsCommand } from './trends.ts';

/** Every command of `trawl`, in help order; a group (e.g. `admin`) is one more module here. */
export const COMMANDS: CliModule[] = [fetchCommand, crawlCommand, resumeCommand, trendsCommand, adminGroup];
