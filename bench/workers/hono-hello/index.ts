/** The start-up floor: a Hono Worker with one route, measured beside Groundwork by `npm run bench -- startup`. */
import { Hono } from 'hono';

const app = new Hono();
app.get('/', (c) => c.text('ok'));

export default app;
