import { describe, expect, it } from 'vitest';
import { sharedRangeProblems } from './compat';

const shell = { react: '19.3.1', 'react-dom': '19.3.1', 'react-router-dom': '7.18.5', zustand: '5.1.0' };

describe('sharedRangeProblems', () => {
  it('accepts ranges the shell satisfies', () => {
    expect(
      sharedRangeProblems(
        { react: '^19.2.0', 'react-dom': '^19.2.0', 'react-router-dom': '^7.9.0', zustand: '^5.0.8' },
        shell,
      ),
    ).toEqual([]);
  });

  it('names each shared package the shell cannot satisfy', () => {
    const problems = sharedRangeProblems(
      { react: '^18.2.0', 'react-dom': '^19.2.0', 'react-router-dom': 'not a range', zustand: undefined },
      shell,
    );
    expect(problems).toEqual([
      'react: the remote needs ^18.2.0 but the shell provides 19.3.1',
      'react-router-dom: "not a range" is not a valid version range',
      'zustand: the remote does not declare a range for this shared package',
    ]);
  });

  it('reports a package the shell lacks', () => {
    expect(
      sharedRangeProblems(
        { react: '^19.0.0', 'react-dom': '^19.0.0', 'react-router-dom': '^7.0.0', zustand: '^5.0.0' },
        { ...shell, zustand: undefined },
      ),
    ).toEqual(['zustand: the shell does not provide this shared package']);
  });
});
