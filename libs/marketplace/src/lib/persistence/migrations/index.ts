import { CreateMarketplace1795331816132 } from './1795331816132-CreateMarketplace';

/** Every migration of the marketplace schema, oldest first. */
export const MARKETPLACE_MIGRATIONS = [CreateMarketplace1795331816132];
