import { storeConformance } from './store-suite.ts';
import { useKvStores } from './store-backends.ts';

storeConformance(useKvStores());
