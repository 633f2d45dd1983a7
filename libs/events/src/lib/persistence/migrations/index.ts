import { CreateEvents1795320582868 } from './1795320582868-CreateEvents';

/** Every migration of the events schema, oldest first. */
export const EVENTS_MIGRATIONS = [CreateEvents1795320582868];
