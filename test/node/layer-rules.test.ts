import { describe, expect, it } from 'vitest';
import { ESLint } from 'eslint';
import { fileURLToPath } from 'node:url';

const eslint = new ESLint({ cwd: fileURLToPath(new URL('../..', import.meta.url)) });

async function restrictedImports(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result!.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('layer rules (eslint.config.js)', () => {
  it('only the Electron shell imports electron', async () => {
    const code = "import { app } from 'electron';\nexport const a = app;\n";
    expect(await restrictedImports('src-main/core/x.ts', code)).toHaveLength(1);
    expect(await restrictedImports('src-main/sandbox/x.ts', code)).toHaveLength(1);
    expect(await restrictedImports('src-main/cli.ts', code)).toHaveLength(1);
    expect(await restrictedImports('src-main/electron/x.ts', code)).toHaveLength(0);
    expect(await restrictedImports('src-main/index.ts', code)).toHaveLength(0);
  });

  it('common imports neither Node modules nor other folders of ours', async () => {
    expect(
      await restrictedImports(
        'src-main/common/x.ts',
        "import { readFileSync } from 'node:fs';\nexport const a = readFileSync;\n",
      ),
    ).toHaveLength(1);
    expect(
      await restrictedImports(
        'src-main/common/x.ts',
        "import { createHash } from 'crypto';\nexport const a = createHash;\n",
      ),
    ).toHaveLength(1);
    expect(
      await restrictedImports(
        'src-main/common/x.ts',
        "import { signBody } from '../core/bodysign';\nexport const a = signBody;\n",
      ),
    ).toHaveLength(1);
    expect(
      await restrictedImports(
        'src-main/common/x.ts',
        "import { RETCODE } from './retcodes';\nexport const a = RETCODE;\n",
      ),
    ).toHaveLength(0);
  });

  it('core does not depend on hosts', async () => {
    const code = "import { startSandbox } from '../sandbox/server';\nexport const a = startSandbox;\n";
    expect(await restrictedImports('src-main/core/x.ts', code)).toHaveLength(1);
  });

  it('the renderer imports only src-main/common from the main side', async () => {
    expect(
      await restrictedImports(
        'src-renderer/src/x.ts',
        "import { signBody } from '../../src-main/core/bodysign';\nexport const a = signBody;\n",
      ),
    ).toHaveLength(1);
    expect(
      await restrictedImports(
        'src-renderer/src/x.ts',
        "import { RETCODE } from '../../src-main/common/retcodes';\nexport const a = RETCODE;\n",
      ),
    ).toHaveLength(0);
    expect(
      await restrictedImports(
        'src-renderer/src/x.ts',
        "import { readFileSync } from 'node:fs';\nexport const a = readFileSync;\n",
      ),
    ).toHaveLength(1);
  });
});
