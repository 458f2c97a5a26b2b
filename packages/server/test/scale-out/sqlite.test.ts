import { describeScaleOut } from './races.js';
import { sqliteDatabase } from './support.js';

// Two `fulfil serve` processes sharing one SQLite file: writers queue on the file's lock, and no
// client ever sees SQLITE_BUSY.
describeScaleOut('scale-out: two server processes on one SQLite file', sqliteDatabase);
