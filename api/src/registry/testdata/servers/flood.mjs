// An MCP server for the inspector's tests that prints junk on stdout without end: the output bound must stop it.
const line = 'x'.repeat(1023) + '\n';
const write = () => {
  while (process.stdout.write(line));
  process.stdout.once('drain', write);
};
write();
