import { teamAdminConformance } from './team-admin-suite.ts';
import { useKvStores } from './store-backends.ts';

teamAdminConformance(useKvStores());
