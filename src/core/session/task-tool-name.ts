/** The `task` tool's name: a sub-agent is started by calling it (a file of its own, so the screen can name it without loading the loop). */
export const TASK_TOOL = 'task';
