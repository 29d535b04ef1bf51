import { simulatorShard } from './fault-simulator-shard';

simulatorShard(1);
