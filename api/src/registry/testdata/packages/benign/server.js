#!/usr/bin/env node
// A benign MCP server: two tools, one of whose descriptions carries the value its record declares (the sandbox
// passes the declared environment and nothing else).
import { serve } from './stdio-server.mjs';

serve('sandbox-e2e-weather', [
  { name: 'get_forecast', description: `Forecast for a city, in ${process.env.WEATHER_UNITS ?? 'no declared'} units.` },
  { name: 'get_alerts', description: 'Weather alerts for a region.' },
]);
