# Generates ir/decorations_footprints.inc from pgflibrarydecorations.footprints.code.tex: each
# animal's outline with its own \pgftransformcm / \pgftransformscale applied, in foot-length units.
import re
src = open('/usr/share/texlive/texmf-dist/tex/generic/pgf/libraries/decorations/pgflibrarydecorations.footprints.code.tex').read()
blocks = re.findall(r'(?:\\def\\pgf@lib@foot@of@(\w+)|\\csname pgf@lib@foot@of@([a-z ]+)\\endcsname)\{(.*?)\n\}%', src, re.S)
num = r'(-?[\d.]+)pt'
pt = r'\\pgfqpoint\{' + num + r'\}\{' + num + r'\}'
out = ['// Generated from pgflibrarydecorations.footprints.code.tex (pgf 3.1) by ir/decorations_footprints.py:',
       '// each animal\'s outline, its own \\pgftransformcm and \\pgftransformscale',
       '// applied, as ops: M (moveto), L (lineto), C (curveto: three points), Z (closepath).',
       'struct FootOp { char op; double x1, y1, x2, y2, x3, y3; };',
       'struct FootOutline { const char* animal; std::vector<FootOp> ops; };',
       'static const FootOutline kFootOutlines[] = {']
for a, b, body in blocks:
    name = a or b
    M = [1, 0, 0, 1, 0, 0]  # a b c d e f: x' = a x + c y + e, y' = b x + d y + f
    def then(N):
        global M
        a1, b1, c1, d1, e1, f1 = M
        a2, b2, c2, d2, e2, f2 = N
        # apply N first, then M
        M = [a1*a2 + c1*b2, b1*a2 + d1*b2, a1*c2 + c1*d2, b1*c2 + d1*d2, a1*e2 + c1*f2 + e1, b1*e2 + d1*f2 + f1]
    def ap(x, y):
        a1, b1, c1, d1, e1, f1 = M
        return (a1*x + c1*y + e1, b1*x + d1*y + f1)
    ops = []
    for line in body.split('\n'):
        line = line.split('%')[0]
        m = re.search(r'\\pgftransformcm\{([-\d.]+)\}\{([-\d.]+)\}\{([-\d.]+)\}\{([-\d.]+)\}\{' + pt + r'\}', line)
        if m:
            v = [float(x) for x in m.groups()]
            then([v[0], v[1], v[2], v[3], v[4], v[5]])
            continue
        m = re.search(r'\\pgftransformscale\{([-\d.]+)\}', line)
        if m:
            s = float(m.group(1)); then([s, 0, 0, s, 0, 0]); continue
        for mm in re.finditer(r'\\pgfpath(moveto|lineto|curveto|close)((?:\{\\pgfqpoint\{[-\d.]+pt\}\{[-\d.]+pt\}\})*)', line):
            cmd, rest = mm.group(1), mm.group(2)
            pts = [ap(float(x), float(y)) for x, y in re.findall(pt, rest)]
            flat = [c for p in pts for c in p] + [0] * (6 - 2 * len(pts))
            op = {'moveto': 'M', 'lineto': 'L', 'curveto': 'C', 'close': 'Z'}[cmd]
            ops.append("{'%s', %s}" % (op, ', '.join('%.6g' % c for c in flat)))
    out.append('    {"%s", {%s}},' % (name, ',\n      '.join(ops)))
out.append('};')
open('/work/main/ir/decorations_footprints.inc', 'w').write('\n'.join(out) + '\n')
print([ (a or b) for a,b,_ in blocks])
