<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>CardPainter</name>
    <message>
        <source>x = argmax p</source>
        <translation>x = argmax p</translation>
    </message>
    <message>
        <source>x ≠ argmax p</source>
        <translation>x ≠ argmax p</translation>
    </message>
    <message>
        <source>discarded</source>
        <translation>已丢弃</translation>
    </message>
</context>
<context>
    <name>CardStrip</name>
    <message>
        <source>residual</source>
        <translation>残差</translation>
    </message>
    <message>
        <source>bonus</source>
        <translation>奖励</translation>
    </message>
</context>
<context>
    <name>CommandLine</name>
    <message>
        <source>Speculative decoding lab: run it for real and see every step.</source>
        <translation>投机解码实验室：真实运行，看清每一步。</translation>
    </message>
    <message>
        <source>Corpus: a built corpus name (kjv, tang-song) or a UTF-8 file.</source>
        <translation>语料：已构建的语料名（kjv、tang-song）或 UTF-8 文本文件。</translation>
    </message>
    <message>
        <source>name|path</source>
        <translation>名称|路径</translation>
    </message>
    <message>
        <source>Target model spec (ngram:6, onnx:PATH, hf:FOLDER).</source>
        <translation>目标模型规格（ngram:6、onnx:路径、hf:文件夹）。</translation>
    </message>
    <message>
        <source>spec</source>
        <translation>规格</translation>
    </message>
    <message>
        <source>Draft model spec (ngram:2, uniform, same, onnx:PATH, hf:FOLDER).</source>
        <translation>草稿模型规格（ngram:2、uniform、same、onnx:路径、hf:文件夹）。</translation>
    </message>
    <message>
        <source>Train the draft on another corpus.</source>
        <translation>用另一个语料训练草稿模型。</translation>
    </message>
    <message>
        <source>Text to continue.</source>
        <translation>要续写的文本。</translation>
    </message>
    <message>
        <source>text</source>
        <translation>文本</translation>
    </message>
    <message>
        <source>Draft length K (1-64).</source>
        <translation>草稿长度 K（1–64）。</translation>
    </message>
    <message>
        <source>K</source>
        <translation>K</translation>
    </message>
    <message>
        <source>Target temperature; 0 = greedy.</source>
        <translation>目标温度；0 = 贪心。</translation>
    </message>
    <message>
        <source>T</source>
        <translation>T</translation>
    </message>
    <message>
        <source>Draft temperature (default: the target&apos;s).</source>
        <translation>草稿温度（默认与目标相同）。</translation>
    </message>
    <message>
        <source>Keep the k most probable tokens (0 = off).</source>
        <translation>只保留最可能的 k 个词元（0 = 关闭）。</translation>
    </message>
    <message>
        <source>k</source>
        <translation>k</translation>
    </message>
    <message>
        <source>Nucleus sampling mass in (0, 1].</source>
        <translation>核采样概率质量，取值 (0, 1]。</translation>
    </message>
    <message>
        <source>p</source>
        <translation>p</translation>
    </message>
    <message>
        <source>Random seed.</source>
        <translation>随机种子。</translation>
    </message>
    <message>
        <source>n</source>
        <translation>n</translation>
    </message>
    <message>
        <source>Render the window offscreen to FILE (PNG) and exit.</source>
        <translation>离屏渲染窗口并保存为 FILE（PNG），然后退出。</translation>
    </message>
    <message>
        <source>FILE</source>
        <translation>文件</translation>
    </message>
    <message>
        <source>Play rounds at full speed offscreen and print timing JSON.</source>
        <translation>离屏全速播放若干轮并输出计时 JSON。</translation>
    </message>
    <message>
        <source>Rounds to play before the screenshot or in the benchmark.</source>
        <translation>截图前或基准测试中要播放的轮数。</translation>
    </message>
    <message>
        <source>N</source>
        <translation>N</translation>
    </message>
    <message>
        <source>Phase of the last round in the screenshot: draft, verify, dice, residual, bonus or commit.</source>
        <translation>截图中最后一轮的阶段：draft、verify、dice、residual、bonus 或 commit。</translation>
    </message>
    <message>
        <source>NAME</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Card whose distributions the screenshot shows (1..K+1).</source>
        <translation>截图中显示其分布的卡片（1..K+1）。</translation>
    </message>
    <message>
        <source>Window size for --screenshot, e.g. 1600x1000.</source>
        <translation>--screenshot 的窗口尺寸，例如 1600x1000。</translation>
    </message>
    <message>
        <source>WxH</source>
        <translation>宽x高</translation>
    </message>
    <message>
        <source>Interface language: en or zh_CN.</source>
        <translation>界面语言：en 或 zh_CN。</translation>
    </message>
    <message>
        <source>code</source>
        <translation>代码</translation>
    </message>
    <message>
        <source>--%1 expects a number, got &apos;%2&apos;</source>
        <translation>--%1 需要一个数字，得到的是“%2”</translation>
    </message>
    <message>
        <source>--phase must be draft, verify, dice, residual, bonus or commit, got &apos;%1&apos;</source>
        <translation>--phase 必须是 draft、verify、dice、residual、bonus 或 commit，得到的是“%1”</translation>
    </message>
    <message>
        <source>--size expects WxH with sides from 1 to %1, e.g. 1600x1000, got &apos;%2&apos;</source>
        <translation>--size 需要 宽x高，每边从 1 到 %1，例如 1600x1000，得到的是“%2”</translation>
    </message>
    <message>
        <source>--%1 expects a whole number, got &apos;%2&apos;</source>
        <translation>--%1 需要一个整数，得到的是“%2”</translation>
    </message>
    <message>
        <source>--%1 is out of range: %2</source>
        <translation>--%1 超出范围：%2</translation>
    </message>
    <message>
        <source>--seed expects a whole number from 0 to 18446744073709551615, got &apos;%1&apos;</source>
        <translation>--seed 需要 0 到 18446744073709551615 之间的整数，得到的是“%1”</translation>
    </message>
    <message>
        <source>--quiz expects a question number from 1, got &apos;%1&apos;</source>
        <translation>--quiz 需要从 1 开始的题号，得到的是“%1”</translation>
    </message>
    <message>
        <source>Open a lesson file (see docs/lessons.md) and run its setup.</source>
        <translation>打开课程文件（见 docs/lessons.md）并运行其设置。</translation>
    </message>
    <message>
        <source>Open the quiz, at question N (default 1).</source>
        <translation>打开测验，停在第 N 题（默认第 1 题）。</translation>
    </message>
    <message>
        <source>Start in presenter mode (large text, one stage at a time; F5 or Esc leaves).</source>
        <translation>以演示模式启动（大字号，一次一个舞台；按 F5 或 Esc 退出）。</translation>
    </message>
    <message>
        <source>Token tree: children per depth, e.g. 3,2,1 (default: a chain of K).</source>
        <translation>词元树：每层的子节点数，如 3,2,1（默认：长度为 K 的链）。</translation>
    </message>
    <message>
        <source>shape</source>
        <translation>形状</translation>
    </message>
    <message>
        <source>The benchmark reports resident memory after N rounds and at the end over it (default 20000).</source>
        <translation>基准测试报告 N 轮之后的常驻内存，以及结束时与它的比值（默认 20000）。</translation>
    </message>
    <message>
        <source>--rss-at expects a number of rounds from 1, got &apos;%1&apos;</source>
        <translation>--rss-at 需要从 1 起的轮数，得到的是“%1”</translation>
    </message>
    <message>
        <source>Write the handout of the round shown to FILE (PDF) and exit.</source>
        <translation>把当前回合的讲义写入 FILE（PDF）后退出。</translation>
    </message>
    <message>
        <source>Write the quiz sheet (questions, then answers) to FILE (PDF) and exit.</source>
        <translation>把测验卷（先题目，后答案）写入 FILE（PDF）后退出。</translation>
    </message>
    <message>
        <source>Predict before reveal: each verdict of the dice waits for → (P toggles it).</source>
        <translation>先预测后揭晓：掷骰的每个判定都等按 → 再揭晓（P 键切换）。</translation>
    </message>
    <message>
        <source>With --presenter: the stage shown first: round, distributions, plots (the live plots), numbers (the theory panel), lab, arena, theory (the theory explorer), quiz or race.</source>
        <translation>与 --presenter 一起使用：先显示的舞台：round（回合）、distributions（分布）、plots（实时图表）、numbers（理论面板）、lab（实验室）、arena（擂台）、theory（理论探索器）、quiz（测验）或 race（比赛）。</translation>
    </message>
    <message>
        <source>--stage must be one of %1, got &apos;%2&apos;</source>
        <translation>--stage 必须是 %1 之一，得到的是“%2”</translation>
    </message>
    <message>
        <source>--stage shows a stage of presenter mode: give --presenter too</source>
        <translation>--stage 显示演示模式的一个舞台：请同时给出 --presenter</translation>
    </message>
    <message>
        <source>Tokenizer shared by target and draft: chars (characters) or a tokenizer.json.</source>
        <translation>目标与草稿共用的分词器：chars（字符）或一个 tokenizer.json。</translation>
    </message>
    <message>
        <source>chars|path</source>
        <translation>chars|路径</translation>
    </message>
</context>
<context>
    <name>Phase</name>
    <message>
        <source>Draft</source>
        <translation>起草</translation>
    </message>
    <message>
        <source>Verify</source>
        <translation>验证</translation>
    </message>
    <message>
        <source>Dice</source>
        <translation>掷骰</translation>
    </message>
    <message>
        <source>Residual</source>
        <translation>残差</translation>
    </message>
    <message>
        <source>Bonus</source>
        <translation>奖励</translation>
    </message>
    <message>
        <source>Commit</source>
        <translation>提交</translation>
    </message>
    <message>
        <source>The apprentice (draft model) writes K tokens, one call each; each card shows q(x).</source>
        <translation>学徒（草稿模型）逐个写出 K 个词元，每个调用一次；每张卡片显示 q(x)。</translation>
    </message>
    <message>
        <source>The head chef (target model) scores all K + 1 positions in one forward pass; each card gets p(x).</source>
        <translation>主厨（目标模型）在一次前向计算中为全部 K + 1 个位置打分；每张卡片得到 p(x)。</translation>
    </message>
    <message>
        <source>Greedy: each card is kept when it equals the target&apos;s most probable token.</source>
        <translation>贪心模式：卡片等于目标模型最可能的词元时保留。</translation>
    </message>
    <message>
        <source>Each card rolls u ~ U[0, 1) and is kept when u &lt; min(1, p/q); the first failure stops the test.</source>
        <translation>每张卡片掷出 u ~ U[0, 1)，当 u &lt; min(1, p/q) 时保留；第一次失败即停止检验。</translation>
    </message>
    <message>
        <source>The rejected card is replaced by the target&apos;s most probable token.</source>
        <translation>被拒绝的卡片由目标模型最可能的词元替换。</translation>
    </message>
    <message>
        <source>The rejected card is replaced by a draw from the residual norm(max(0, p − q)).</source>
        <translation>被拒绝的卡片由残差分布 norm(max(0, p − q)) 中抽取的词元替换。</translation>
    </message>
    <message>
        <source>All K passed: the (K + 1)-th target distribution gives one more token for free.</source>
        <translation>K 个全部通过：第 K + 1 个目标分布免费多给一个词元。</translation>
    </message>
    <message>
        <source>Accepted tokens and the corrected or bonus token join the text.</source>
        <translation>被接受的词元以及修正词元或奖励词元加入正文。</translation>
    </message>
</context>
<context>
    <name>specdec::TreeVariant</name>
    <message>
        <source>Each rejected child takes its overlap out of p: the next child is tested against norm(max(0, p&apos; - q)), and the output follows p exactly.</source>
        <translation>每个被拒绝的子节点把它的重叠部分从 p 中去掉：下一个子节点对照 norm(max(0, p&apos; - q)) 检验，输出严格服从 p。</translation>
    </message>
    <message>
        <source>Testing every child against the original p gives the overlap min(p, q) one chance per child: tokens where the draft is confident are over-represented.</source>
        <translation>每个子节点都对照原来的 p 检验，重叠 min(p, q) 每个子节点都有一次机会：草稿有把握的词元被过多选中。</translation>
    </message>
    <message>
        <source>Medusa&apos;s typical acceptance keeps any child the target finds plausible enough: faster, but the output no longer follows p.</source>
        <translation>Medusa 的典型接受保留目标认为足够合理的任何子节点：更快，但输出不再服从 p。</translation>
    </message>
</context>
<context>
    <name>specdec::Variant</name>
    <message>
        <source>Accept with probability min(1, p/q), resample rejections from norm(max(0, p - q)): the output follows p exactly.</source>
        <translation>以概率 min(1, p/q) 接受，被拒绝时从 norm(max(0, p - q)) 重新采样：输出恰好服从 p。</translation>
    </message>
    <message>
        <source>Every draft token is kept, so the output follows the draft&apos;s q, not the target&apos;s p.</source>
        <translation>每个草稿词元都被保留，所以输出服从草稿的 q，而不是目标的 p。</translation>
    </message>
    <message>
        <source>Keeping only the target&apos;s argmax drops every other token p would have sampled at T &gt; 0.</source>
        <translation>只保留目标的 argmax，会丢掉 T &gt; 0 时 p 本会采到的其他所有词元。</translation>
    </message>
    <message>
        <source>After a rejection, drawing from p adds p&apos;s mass on top of what acceptance already gave: tokens where q &gt; p are over-represented.</source>
        <translation>拒绝后从 p 采样，会在接受已给出的概率之上再叠加 p 的质量：q &gt; p 的词元被过度代表。</translation>
    </message>
    <message>
        <source>max(0, p - q) sums to 1 - beta, not 1: the missing mass falls back on the draft token.</source>
        <translation>max(0, p - q) 的总和是 1 - beta 而不是 1：缺失的质量落回到草稿词元上。</translation>
    </message>
    <message>
        <source>The draft sampled from its tempered q, but the test divides by the untempered q: the ratio p/q is wrong for every token.</source>
        <translation>草稿从加温后的 q 采样，检验却除以未加温的 q：每个词元的比值 p/q 都是错的。</translation>
    </message>
</context>
<context>
    <name>specdec::app::ExperimentNotes</name>
    <message>
        <source>The draft %1 was trained on too small a text for its order: in its %2 characters each context of %3 characters occurs %4 times on average, so it can only repeat the text.</source>
        <translation>草稿模型 %1 的训练文本对它的阶数来说太小：在 %2 个字符中，每个 %3 字符的上下文平均只出现 %4 次，所以它只能复述这段文本。</translation>
    </message>
    <message>
        <source>The target %1 was trained on too small a text for its order: in its %2 characters each context of %3 characters occurs %4 times on average, so it can only repeat the text.</source>
        <translation>目标模型 %1 的训练文本对它的阶数来说太小：在 %2 个字符中，每个 %3 字符的上下文平均只出现 %4 次，所以它只能复述这段文本。</translation>
    </message>
    <message>
        <source>Use ngram:%1 or a longer text.</source>
        <translation>请改用 ngram:%1 或更长的文本。</translation>
    </message>
    <message>
        <source>Use a longer text.</source>
        <translation>请改用更长的文本。</translation>
    </message>
</context>
<context>
    <name>specdec::gui</name>
    <message>
        <source>1. The draft writes K tokens x₁, x₂, …, each drawn from its distribution q.</source>
        <translation>1. 草稿模型写出 K 个词元 x₁、x₂、…，每个都从其分布 q 中抽取。</translation>
    </message>
    <message>
        <source>2. The target scores all K + 1 positions in one forward pass: p at each of them.</source>
        <translation>2. 目标模型在一次前向计算中为全部 K + 1 个位置打分：每个位置各得一个 p。</translation>
    </message>
    <message>
        <source>3. Token i passes when a uniform u &lt; min(1, p(xᵢ) / q(xᵢ)); at T = 0, when xᵢ = argmax p.</source>
        <translation>3. 当均匀随机数 u &lt; min(1, p(xᵢ) / q(xᵢ)) 时第 i 个词元通过；T = 0 时，当 xᵢ = argmax p 时通过。</translation>
    </message>
    <message>
        <source>4. At the first failure a replacement is drawn from norm(max(0, p − q)); the round ends.</source>
        <translation>4. 第一次失败时，从 norm(max(0, p − q)) 中抽取替换词元，本轮结束。</translation>
    </message>
    <message>
        <source>5. If all K pass, a bonus token is drawn from p at position K + 1. The output follows p exactly.</source>
        <translation>5. 若 K 个全部通过，再从第 K + 1 个位置的 p 抽取一个奖励词元。输出严格服从 p。</translation>
    </message>
    <message>
        <source>draft (apprentice), q</source>
        <translation>草稿（学徒），q</translation>
    </message>
    <message>
        <source>target (head chef), p</source>
        <translation>目标（主厨），p</translation>
    </message>
    <message>
        <source>accepted</source>
        <translation>已接受</translation>
    </message>
    <message>
        <source>rejected</source>
        <translation>被拒绝</translation>
    </message>
    <message>
        <source>residual (replacement)</source>
        <translation>残差（替换）</translation>
    </message>
    <message>
        <source>bonus</source>
        <translation>奖励</translation>
    </message>
    <message>
        <source>discarded</source>
        <translation>已丢弃</translation>
    </message>
    <message>
        <source>This run</source>
        <translation>本次运行</translation>
    </message>
    <message>
        <source>The algorithm in five lines</source>
        <translation>五行算法</translation>
    </message>
    <message>
        <source>Colours</source>
        <translation>颜色</translation>
    </message>
    <message>
        <source>Name: ____________________   Tick one box, or every box where the question says so.</source>
        <translation>姓名：____________________   每题勾选一个方框；注明多选的题勾选所有正确项。</translation>
    </message>
    <message>
        <source>choose all that apply</source>
        <translation>多选</translation>
    </message>
    <message>
        <source>choose one</source>
        <translation>单选</translation>
    </message>
    <message>
        <source>Answers</source>
        <translation>答案</translation>
    </message>
    <message>
        <source>In the app: %1</source>
        <translation>在应用中：%1</translation>
    </message>
</context>
<context>
    <name>specdec::gui::ActionRegistry</name>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Play</source>
        <translation>播放(&amp;P)</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <source>&amp;Language</source>
        <translation>语言(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;Classroom</source>
        <translation>课堂(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
</context>
<context>
    <name>specdec::gui::ArenaLane</name>
    <message>
        <source>%1 tokens · %2 target passes</source>
        <translation>%1 个词元 · %2 次目标前向</translation>
    </message>
    <message>
        <source>T &gt; 0: a different sample of the same distribution</source>
        <translation>T &gt; 0：同一分布的另一个样本</translation>
    </message>
    <message>
        <source>✓ same text as the target</source>
        <translation>✓ 与目标文字相同</translation>
    </message>
    <message>
        <source>✗ differs from the target&apos;s text</source>
        <translation>✗ 与目标文字不同</translation>
    </message>
    <message>
        <source>&lt;b&gt;tree %1&lt;/b&gt;: %2 nodes, one target pass</source>
        <translation>&lt;b&gt;树 %1&lt;/b&gt;：%2 个节点，一次目标前向</translation>
    </message>
    <message>
        <source>accepted path per round (of %1):</source>
        <translation>每轮接受路径长度（最多 %1）：</translation>
    </message>
    <message>
        <source>mean %1 + 1 correction or bonus</source>
        <translation>平均 %1 + 1 个修正或奖励词元</translation>
    </message>
    <message>
        <source>Each round drafts the whole tree and the target scores every node in one pass; the dice then walk down it, and the number is how deep the accepted path went (0 to %1) before the correction or bonus token.</source>
        <translation>每轮先起草整棵树，目标模型在一次前向中为所有节点打分；然后骰子沿树往下走，这个数字就是接受路径走到的深度（0 到 %1），之后再加一个修正或奖励词元。</translation>
    </message>
</context>
<context>
    <name>specdec::gui::ArenaRunner</name>
    <message>
        <source>The arena takes 2 to 6 lanes, got %1.</source>
        <translation>擂台需要 2 到 6 条赛道，收到 %1 条。</translation>
    </message>
    <message>
        <source>tree %1</source>
        <translation>树 %1</translation>
    </message>
</context>
<context>
    <name>specdec::gui::ArenaTool</name>
    <message>
        <source>Playing…</source>
        <translation>正在运行…</translation>
    </message>
    <message>
        <source>Each lane: same target, prompt, seed and settings.</source>
        <translation>每条赛道：相同的目标、提示词、种子与设置。</translation>
    </message>
    <message>
        <source>Loading the target and %1 drafts…</source>
        <translation>正在载入目标模型和 %1 个草稿模型…</translation>
    </message>
    <message>
        <source>Loading the target and %1 drafts … %2 %</source>
        <translation>正在载入目标模型和 %1 个草稿模型 … %2 %</translation>
    </message>
</context>
<context>
    <name>specdec::gui::ArenaView</name>
    <message>
        <source>Target %1 on %2; %3 tokens per lane; same prompt, seed and sampler settings.</source>
        <translation>目标 %1，语料 %2；每条赛道 %3 个词元；提示词、种子与采样设置相同。</translation>
    </message>
    <message>
        <source>Load lanes</source>
        <translation>载入赛道</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>单步</translation>
    </message>
    <message>
        <source>Play to the end</source>
        <translation>播放到结束</translation>
    </message>
    <message>
        <source>One round per lane</source>
        <translation>每条赛道一轮</translation>
    </message>
    <message>
        <source>Aligned by tokens so far</source>
        <translation>按已写词元数对齐</translation>
    </message>
    <message>
        <source>Draft</source>
        <translation>草稿</translation>
    </message>
    <message>
        <source>α&#x200d;&#x302;</source>
        <translation>α&#x200d;&#x302;</translation>
    </message>
    <message>
        <source>c</source>
        <translation>c</translation>
    </message>
    <message>
        <source>Tokens written against target passes</source>
        <translation>已写词元数与目标前向次数</translation>
    </message>
    <message>
        <source>target passes</source>
        <translation>目标前向次数</translation>
    </message>
    <message>
        <source>tokens</source>
        <translation>词元</translation>
    </message>
    <message>
        <source>Acceptance α&#x200d;&#x302; (cumulative)</source>
        <translation>接受率 α&#x200d;&#x302;（累计）</translation>
    </message>
    <message>
        <source>round</source>
        <translation>轮次</translation>
    </message>
    <message>
        <source>Draft length K per round</source>
        <translation>每轮草稿长度 K</translation>
    </message>
    <message>
        <source>Lanes, one per line: a draft (ngram:N, onnx:PATH, uniform, same, lookup:N) and optionally a policy (heuristic, confidence:0.4, threshold:0.6) or a token tree (tree:3,2,1)</source>
        <translation>赛道，每行一条：一个草稿模型（ngram:N、onnx:路径、uniform、same、lookup:N），可选一个策略（heuristic、confidence:0.4、threshold:0.6）或一棵词元树（tree:3,2,1）</translation>
    </message>
    <message>
        <source>Tokens
/ round</source>
        <translation>词元 / 轮</translation>
    </message>
    <message>
        <source>Speedup
(passes)</source>
        <translation>加速比（前向次数）</translation>
    </message>
    <message>
        <source>Speedup
(V = 1)</source>
        <translation>加速比（V = 1）</translation>
    </message>
    <message>
        <source>Speedup
(wall clock)</source>
        <translation>加速比（实际耗时）</translation>
    </message>
    <message>
        <source>Draft ms
/ call</source>
        <translation>草稿毫秒 / 次</translation>
    </message>
    <message>
        <source>Target
passes</source>
        <translation>目标前向次数</translation>
    </message>
    <message>
        <source>Drafted /
accepted</source>
        <translation>起草 / 接受</translation>
    </message>
    <message>
        <source>Tokens per target pass: each pass commits a round&apos;s accepted drafts and one token of its own.</source>
        <translation>每次目标计算的词元数：每次计算提交一轮被接受的草稿和它自己的一个词元。</translation>
    </message>
    <message>
        <source>Theorem 3.8: E[N] / (1 + K·c), a verification of K + 1 positions costing one step (the accelerator case).</source>
        <translation>定理 3.8：E[N] / (1 + K·c)，假设验证 K + 1 个位置只花一步（加速器情形）。</translation>
    </message>
    <message>
        <source>Baseline time / speculative time, measured: below the passes when a verification costs more than a step or the draft is not cheap.</source>
        <translation>基线时间 / 投机时间，实测：当一次验证花费超过一步，或草稿并不便宜时，它低于按计算次数的加速比。</translation>
    </message>
</context>
<context>
    <name>specdec::gui::BarEditor</name>
    <message>
        <source>Drag a bar up or down to change its probability; the other bars rescale so the total stays 1.</source>
        <translation>上下拖动柱子改变其概率；其余柱子按比例缩放，总和保持为 1。</translation>
    </message>
</context>
<context>
    <name>specdec::gui::CacheStrip</name>
    <message>
        <source>target cache, tokens</source>
        <translation>目标缓存（词元数）</translation>
    </message>
    <message>
        <source>draft cache, tokens</source>
        <translation>草稿缓存（词元数）</translation>
    </message>
    <message>
        <source>%1: %2 → %3</source>
        <translation>%1：%2 → %3</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source> → %1 (%2 discarded)</source>
        <translation> → %1（丢弃 %2 项）</translation>
    </message>
    <message numerus="yes">
        <source>, %n window refill(s)</source>
        <translation>
            <numerusform>，窗口重填 %n 次</numerusform>
        </translation>
    </message>
    <message>
        <source>target</source>
        <translation>主厨</translation>
    </message>
    <message>
        <source>draft</source>
        <translation>学徒</translation>
    </message>
    <message>
        <source> → %1 (−%2)</source>
        <translation> → %1（−%2）</translation>
    </message>
    <message numerus="yes">
        <source>, %n refill(s)</source>
        <translation>
            <numerusform>，重填 %n 次</numerusform>
        </translation>
    </message>
    <message>
        <source>The numbers count tokens of text in each model&apos;s state: the prompt, the committed tokens and the drafts being checked. A model attends to at most its context of them (the last positions); past it, it refills its window.</source>
        <translation>数字统计每个模型状态中的文本词元：提示词、已提交的词元以及正在检验的草稿。模型最多关注其上下文长度那么多（最后的若干位置）；超出后会重新填充窗口。</translation>
    </message>
</context>
<context>
    <name>specdec::gui::ClassroomTools</name>
    <message>
        <source>Race: target alone vs speculative</source>
        <translation>比赛：目标单独解码对投机解码</translation>
    </message>
    <message>
        <source>Race</source>
        <translation>比赛</translation>
    </message>
    <message>
        <source>Lessons</source>
        <translation>课程</translation>
    </message>
    <message>
        <source>Draft arena</source>
        <translation>草稿擂台</translation>
    </message>
    <message>
        <source>Lossless lab</source>
        <translation>无损实验室</translation>
    </message>
    <message>
        <source>Theory explorer</source>
        <translation>理论探索器</translation>
    </message>
    <message>
        <source>Play a round in the main window first.</source>
        <translation>请先在主窗口运行一轮。</translation>
    </message>
    <message>
        <source>others</source>
        <translation>其他</translation>
    </message>
    <message>
        <source>session</source>
        <translation>会话</translation>
    </message>
    <message>
        <source>Open &amp;lesson…</source>
        <translation>打开课程(&amp;L)…</translation>
    </message>
    <message>
        <source>Quiz</source>
        <translation>测验</translation>
    </message>
    <message>
        <source>Open lesson</source>
        <translation>打开课程</translation>
    </message>
    <message>
        <source>Lessons (*.lesson.json *.json)</source>
        <translation>课程 (*.lesson.json *.json)</translation>
    </message>
    <message>
        <source>&amp;User guide</source>
        <translation>使用指南(&amp;U)</translation>
    </message>
    <message>
        <source>&amp;Keyboard shortcuts</source>
        <translation>键盘快捷键(&amp;K)</translation>
    </message>
    <message>
        <source>&amp;Reset layout and setup</source>
        <translation>重置布局和设置(&amp;R)</translation>
    </message>
    <message>
        <source>Round</source>
        <translation>回合</translation>
    </message>
    <message>
        <source>Distributions</source>
        <translation>分布</translation>
    </message>
    <message>
        <source>Live plots</source>
        <translation>实时图表</translation>
    </message>
    <message>
        <source>Theory</source>
        <translation>理论</translation>
    </message>
    <message>
        <source>User guide</source>
        <translation>使用指南</translation>
    </message>
    <message>
        <source>Keyboard shortcuts</source>
        <translation>键盘快捷键</translation>
    </message>
    <message>
        <source>&amp;Back to my session</source>
        <translation>回到我的会话(&amp;B)</translation>
    </message>
    <message>
        <source>A demonstration replaced your session (setup and position); it is kept.</source>
        <translation>演示替换了你的会话（设置与位置）；原会话已保留。</translation>
    </message>
</context>
<context>
    <name>specdec::gui::DistributionView</name>
    <message>
        <source>Full distributions are kept for recent rounds only; the numbers above come from the trace.</source>
        <translation>只为最近的轮次保留完整分布；上面的数字来自轨迹记录。</translation>
    </message>
    <message>
        <source>others</source>
        <translation>其他</translation>
    </message>
    <message>
        <source>q: apprentice (draft)</source>
        <translation>q：学徒（草稿）</translation>
    </message>
    <message>
        <source>p: head chef (target)</source>
        <translation>p：主厨（目标）</translation>
    </message>
    <message>
        <source>residual norm(max(0, p − q))</source>
        <translation>残差 norm(max(0, p − q))</translation>
    </message>
    <message>
        <source>min(p, q): overlap</source>
        <translation>min(p, q)：重叠</translation>
    </message>
    <message>
        <source>Click a card to see its distributions</source>
        <translation>点击卡片查看它的分布</translation>
    </message>
    <message>
        <source>Card #%1 “%2”</source>
        <translation>卡片 #%1 “%2”</translation>
    </message>
    <message>
        <source>token x</source>
        <translation>词元 x</translation>
    </message>
    <message>
        <source>corrected token</source>
        <translation>修正词元</translation>
    </message>
    <message>
        <source>residual r(x)</source>
        <translation>残差 r(x)</translation>
    </message>
    <message>
        <source>replaces card</source>
        <translation>替换卡片</translation>
    </message>
    <message>
        <source>bonus token</source>
        <translation>奖励词元</translation>
    </message>
    <message>
        <source>position K+1</source>
        <translation>第 K+1 个位置</translation>
    </message>
    <message>
        <source>scored in the same target pass</source>
        <translation>在同一次目标前向计算中打分</translation>
    </message>
    <message>
        <source>Correction “%1” from the residual</source>
        <translation>残差给出的修正“%1”</translation>
    </message>
    <message>
        <source>Bonus “%1” from p at position K+1</source>
        <translation>第 K+1 位 p 给出的奖励“%1”</translation>
    </message>
    <message>
        <source>p at position K+1 (scored in the same pass)</source>
        <translation>第 K+1 位的 p（同一次前向计算）</translation>
    </message>
    <message>
        <source>p′: what the child was tested against</source>
        <translation>p′：该子节点检验时所对照的分布</translation>
    </message>
    <message>
        <source>Correction “%1” from the last p′</source>
        <translation>修正“%1”，取自最后的 p′</translation>
    </message>
    <message>
        <source>Bonus “%1” from p after the accepted leaf</source>
        <translation>奖励“%1”，取自被接受叶节点之后的 p</translation>
    </message>
    <message>
        <source>Node “%1”: depth %2, child %3</source>
        <translation>节点“%1”：第 %2 层，第 %3 个子节点</translation>
    </message>
    <message>
        <source>Click a node of the tree to see its distributions</source>
        <translation>点击树上的节点查看它的分布</translation>
    </message>
    <message>
        <source>all children rejected at depth</source>
        <translation>全部子节点被拒绝的层</translation>
    </message>
    <message>
        <source>last p′: the correction is drawn from it</source>
        <translation>最后的 p′：修正词元从中抽取</translation>
    </message>
    <message>
        <source>Round %1 · %2</source>
        <translation>第 %1 轮 · %2</translation>
    </message>
</context>
<context>
    <name>specdec::gui::ExportDialogs</name>
    <message>
        <source>Export trace</source>
        <translation>导出轨迹</translation>
    </message>
    <message>
        <source>CSV (*.csv);;JSON (*.json)</source>
        <translation>CSV (*.csv);;JSON (*.json)</translation>
    </message>
    <message>
        <source>plot %1</source>
        <translation>图 %1</translation>
    </message>
    <message>
        <source>Live plots</source>
        <translation>实时图表</translation>
    </message>
    <message>
        <source>Distributions</source>
        <translation>分布</translation>
    </message>
    <message>
        <source>Draft arena</source>
        <translation>草稿擂台</translation>
    </message>
    <message>
        <source>Theory explorer</source>
        <translation>理论探索器</translation>
    </message>
    <message>
        <source>Lossless lab</source>
        <translation>无损实验室</translation>
    </message>
    <message>
        <source>Export plot</source>
        <translation>导出图表</translation>
    </message>
    <message>
        <source>Plot:</source>
        <translation>图表：</translation>
    </message>
    <message>
        <source>PNG (*.png);;SVG (*.svg);;PDF (*.pdf)</source>
        <translation>PNG (*.png);;SVG (*.svg);;PDF (*.pdf)</translation>
    </message>
    <message>
        <source>PNG (*.png);;PDF (*.pdf)</source>
        <translation>PNG (*.png);;PDF (*.pdf)</translation>
    </message>
    <message>
        <source>Speculative decoding — round %1, %2 (%3 / %4)</source>
        <translation>投机解码 — 第 %1 轮，%2（%3 / %4）</translation>
    </message>
    <message>
        <source>Corpus: %1</source>
        <translation>语料：%1</translation>
    </message>
    <message>
        <source>Target: %1</source>
        <translation>目标：%1</translation>
    </message>
    <message>
        <source>Draft: %1</source>
        <translation>草稿：%1</translation>
    </message>
    <message>
        <source>K = %1</source>
        <translation>K = %1</translation>
    </message>
    <message>
        <source>T = %1 (target), %2 (draft)</source>
        <translation>T = %1（目标），%2（草稿）</translation>
    </message>
    <message>
        <source>Seed %1</source>
        <translation>种子 %1</translation>
    </message>
    <message>
        <source>No prompt: the text starts from nothing</source>
        <translation>无提示词：文本从零开始</translation>
    </message>
    <message>
        <source>Prompt: &quot;%1&quot;</source>
        <translation>提示词：“%1”</translation>
    </message>
    <message>
        <source>Rounds: %1, tokens: %2, target passes: %3</source>
        <translation>轮数：%1，词元：%2，目标前向次数：%3</translation>
    </message>
    <message>
        <source>α&#x200d;&#x302; = %1 (accepted %2 of %3 tested)</source>
        <translation>α&#x200d;&#x302; = %1（检验 %3 个，接受 %2 个）</translation>
    </message>
    <message>
        <source>Tokens per round: %1 (theory E[N]: %2)</source>
        <translation>每轮词元数：%1（理论 E[N]：%2）</translation>
    </message>
    <message>
        <source>Speedup in target passes: %1×</source>
        <translation>按目标前向次数的加速比：%1×</translation>
    </message>
    <message>
        <source>Speedup under the cost model (c = %1): %2×</source>
        <translation>成本模型下的加速比（c = %1）：%2×</translation>
    </message>
    <message>
        <source>Wall-clock speedup: %1×</source>
        <translation>实际耗时加速比：%1×</translation>
    </message>
    <message>
        <source>No round committed yet.</source>
        <translation>尚未提交任何一轮。</translation>
    </message>
    <message>
        <source>Export handout</source>
        <translation>导出讲义</translation>
    </message>
    <message>
        <source>PDF (*.pdf)</source>
        <translation>PDF (*.pdf)</translation>
    </message>
    <message>
        <source>Export quiz sheet</source>
        <translation>导出测验卷</translation>
    </message>
    <message>
        <source>Export trace…</source>
        <translation>导出轨迹…</translation>
    </message>
    <message>
        <source>Export plot…</source>
        <translation>导出图表…</translation>
    </message>
    <message>
        <source>Export handout (PDF)…</source>
        <translation>导出讲义（PDF）…</translation>
    </message>
    <message>
        <source>Export quiz sheet (PDF)…</source>
        <translation>导出测验卷（PDF）…</translation>
    </message>
</context>
<context>
    <name>specdec::gui::Exporter</name>
    <message>
        <source>SVG export needs Qt SVG (package qt6-svg-dev), which this build lacks.</source>
        <translation>导出 SVG 需要 Qt SVG（软件包 qt6-svg-dev），此构建没有它。</translation>
    </message>
    <message>
        <source>Unknown plot format &quot;%1&quot;: use .png, .pdf or .svg.</source>
        <translation>未知的图表格式“%1”：请用 .png、.pdf 或 .svg。</translation>
    </message>
    <message>
        <source>Could not write %1.</source>
        <translation>无法写入 %1。</translation>
    </message>
    <message>
        <source>Could not write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
</context>
<context>
    <name>specdec::gui::HelpBrowser</name>
    <message>
        <source>The user guide was not found (looked for %1).</source>
        <translation>未找到使用指南（查找位置：%1）。</translation>
    </message>
</context>
<context>
    <name>specdec::gui::LessonLibrary</name>
    <message>
        <source>Lessons</source>
        <translation>课程</translation>
    </message>
</context>
<context>
    <name>specdec::gui::LessonPanel</name>
    <message>
        <source>Run this lesson</source>
        <translation>运行这一课</translation>
    </message>
    <message>
        <source>Step %1 of %2</source>
        <translation>第 %1 步 / 共 %2 步</translation>
    </message>
    <message>
        <source>◀ Step</source>
        <translation>◀ 上一步</translation>
    </message>
    <message>
        <source>Step ▶</source>
        <translation>下一步 ▶</translation>
    </message>
</context>
<context>
    <name>specdec::gui::LosslessLabView</name>
    <message>
        <source>S = %1 samples · χ² = %2 on %3 degrees of freedom · p-value = %4 · TV(histogram, p) = %5</source>
        <translation>S = %1 个样本 · χ² = %2，自由度 %3 · p 值 = %4 · TV(直方图, p) = %5</translation>
    </message>
    <message>
        <source>✗ The output does NOT follow p (p-value &lt; %1): this rule is biased.</source>
        <translation>✗ 输出不服从 p（p 值 &lt; %1）：这条规则有偏。</translation>
    </message>
    <message>
        <source>✓ Consistent with p: the histogram converges to the target&apos;s distribution, not the draft&apos;s.</source>
        <translation>✓ 与 p 一致：直方图收敛到目标模型的分布，而不是草稿模型的。</translation>
    </message>
    <message>
        <source>p — the target (head chef)</source>
        <translation>p — 目标模型（主厨）</translation>
    </message>
    <message>
        <source>q — the draft (apprentice)</source>
        <translation>q — 草稿模型（学徒）</translation>
    </message>
    <message>
        <source>Presets:</source>
        <translation>预设：</translation>
    </message>
    <message>
        <source>Random</source>
        <translation>随机</translation>
    </message>
    <message>
        <source>From the models</source>
        <translation>来自模型</translation>
    </message>
    <message>
        <source>One-hot</source>
        <translation>独热</translation>
    </message>
    <message>
        <source>Disjoint</source>
        <translation>不相交</translation>
    </message>
    <message>
        <source>p = q</source>
        <translation>p = q</translation>
    </message>
    <message>
        <source>p and q of the current round in the main window, over its most likely tokens</source>
        <translation>主窗口当前轮的 p 和 q，取其最可能的词元</translation>
    </message>
    <message>
        <source>Alphabet size:</source>
        <translation>字母表大小：</translation>
    </message>
    <message>
        <source>Acceptance rule:</source>
        <translation>接受规则：</translation>
    </message>
    <message>
        <source>Samples S:</source>
        <translation>样本数 S：</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>accepted draft</source>
        <translation>被接受的草稿</translation>
    </message>
    <message>
        <source>from the residual</source>
        <translation>来自残差</translation>
    </message>
    <message>
        <source>p (target)</source>
        <translation>p（目标）</translation>
    </message>
    <message>
        <source>Where the S outputs came from</source>
        <translation>S 个输出的来源</translation>
    </message>
    <message>
        <source>share of outputs</source>
        <translation>输出占比</translation>
    </message>
    <message>
        <source>Predict the histogram first</source>
        <translation>先预测直方图</translation>
    </message>
    <message>
        <source>Hide the run&apos;s histogram until Reveal: let the room guess where the bars will land</source>
        <translation>在揭晓之前隐藏本次运行的直方图：让全班先猜柱子会落在哪里</translation>
    </message>
    <message>
        <source>Reveal the histogram</source>
        <translation>揭晓直方图</translation>
    </message>
    <message>
        <source>Some candidate accepted: measured %1 ± %2 · exact 1 − Π(1 − Σ min(p_j, q)) = %3 (k = %4)</source>
        <translation>有候选被接受：实测 %1 ± %2 · 精确值 1 − Π(1 − Σ min(p_j, q)) = %3（k = %4）</translation>
    </message>
    <message>
        <source>Candidates k:</source>
        <translation>候选数 k：</translation>
    </message>
    <message>
        <source>k drafts drawn i.i.d. from q and tested one by one (one step of a token tree); 1: the one-draft lab</source>
        <translation>从 q 独立同分布抽取 k 个草稿并逐个检验（词元树的一步）；1：单草稿实验</translation>
    </message>
    <message>
        <source>accepted candidate %1</source>
        <translation>接受第 %1 个候选</translation>
    </message>
</context>
<context>
    <name>specdec::gui::MainWindow</name>
    <message>
        <source>%1&apos;s generation_config.json samples greedily: temperature 0 (the setup bar changes it).</source>
        <translation>%1 的 generation_config.json 采用贪心解码：温度 0（可在设置栏中更改）。</translation>
    </message>
    <message>
        <source>%1&apos;s generation_config.json samples at temperature %2, top-k %3, top-p %4: the setup now does (the setup bar changes it).</source>
        <translation>%1 的 generation_config.json 以温度 %2、top-k %3、top-p %4 采样：当前设置已随之更改（可在设置栏中更改）。</translation>
    </message>
    <message>
        <source>Open corpus</source>
        <translation>打开语料</translation>
    </message>
    <message>
        <source>Text files (*.txt);;All files (*)</source>
        <translation>文本文件 (*.txt);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Open ONNX model</source>
        <translation>打开 ONNX 模型</translation>
    </message>
    <message>
        <source>ONNX models (*.onnx);;All files (*)</source>
        <translation>ONNX 模型 (*.onnx);;所有文件 (*)</translation>
    </message>
    <message>
        <source>About specdec-lab</source>
        <translation>关于投机解码实验室</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;specdec-lab&lt;/b&gt; runs speculative decoding for real and shows every step: the apprentice drafts, the head chef verifies in one pass, dice decide, the residual corrects. The output follows the target&apos;s distribution exactly.&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;投机解码实验室&lt;/b&gt;真实地运行投机解码并展示每一步：学徒起草，主厨一次前向计算完成验证，骰子决定去留，残差负责修正。输出分布与目标模型完全一致。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>specdec-lab — Speculative Decoding Lab</source>
        <translation>投机解码实验室 — specdec-lab</translation>
    </message>
    <message>
        <source>Open &amp;corpus…</source>
        <translation>打开语料(&amp;C)…</translation>
    </message>
    <message>
        <source>Open ONNX &amp;model…</source>
        <translation>打开 ONNX 模型(&amp;M)…</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <source>System language</source>
        <translation>跟随系统</translation>
    </message>
    <message>
        <source>&amp;About specdec-lab</source>
        <translation>关于投机解码实验室(&amp;A)</translation>
    </message>
    <message>
        <source>Timeline</source>
        <translation>时间线</translation>
    </message>
    <message>
        <source>Distributions</source>
        <translation>分布</translation>
    </message>
    <message>
        <source>Theory</source>
        <translation>理论</translation>
    </message>
    <message>
        <source>Live plots</source>
        <translation>实时图表</translation>
    </message>
    <message>
        <source>The engine could not do that: %1. Change the setup to try again.</source>
        <translation>引擎无法完成：%1。请修改设置后重试。</translation>
    </message>
    <message>
        <source>Loading %1 — training the models … %2 %</source>
        <translation>正在加载 %1 — 训练模型中 … %2 %</translation>
    </message>
    <message>
        <source>Use %1 as the target (head chef) or as the draft (apprentice)?</source>
        <translation>将 %1 用作目标模型（主厨）还是草稿模型（学徒）？</translation>
    </message>
    <message>
        <source>Target</source>
        <translation>目标模型</translation>
    </message>
    <message>
        <source>Draft</source>
        <translation>草稿模型</translation>
    </message>
    <message>
        <source>Playing to round %1 of the session: %2 played…</source>
        <translation>正在播放到会话的第 %1 轮：已播放 %2 轮…</translation>
    </message>
    <message>
        <source> · stopped at the cap of %1 tokens</source>
        <translation> · 已在 %1 个词元的上限处停止</translation>
    </message>
    <message>
        <source> · the target wrote its end-of-text token: the text ends here</source>
        <translation> · 目标模型写出了文本结束词元：文本到此结束</translation>
    </message>
    <message>
        <source>The prompt · target %1 · draft %2</source>
        <translation>提示词 · 目标 %1 · 草稿 %2</translation>
    </message>
    <message>
        <source>Round %1 · %2 · target %3 · draft %4</source>
        <translation>第 %1 轮 · %2 · 目标 %3 · 草稿 %4</translation>
    </message>
    <message>
        <source>No session: choose a corpus and models above.</source>
        <translation>没有会话：请在上方选择语料和模型。</translation>
    </message>
    <message>
        <source>Go to the last round played</source>
        <translation>转到已运行的最后一轮</translation>
    </message>
    <message>
        <source>Rounds 1 to %1 are no longer kept (the window keeps the newest %2 rounds; their numbers stay in the totals): Home shows round %3, the first one kept.</source>
        <translation>第 1 到 %1 轮已不再保留（窗口只保留最近的 %2 轮；它们的数字仍计入总计）：Home 显示第 %3 轮，即保留的第一轮。</translation>
    </message>
    <message>
        <source> · the first round kept (rounds 1 to %1 left the history)</source>
        <translation> · 保留的第一轮（第 1 到 %1 轮已离开历史）</translation>
    </message>
    <message>
        <source>Something went wrong inside the window: %1. The session and its position are kept; please report this.</source>
        <translation>窗口内部出了错：%1。会话及其位置均已保留；请报告此问题。</translation>
    </message>
    <message>
        <source>The ONNX models know only the text they were trained on and do not learn from a corpus: %1 is played with n-gram models trained on it (target %2, draft %3). Choose an ONNX model again to go back to it.</source>
        <translation>ONNX 模型只认识训练它们的文本，不会从语料中学习：%1 改用在其上训练的 n 元模型运行（目标 %2，草稿 %3）。再次选择 ONNX 模型即可换回。</translation>
    </message>
    <message>
        <source>At T = 0 the head chef takes its most likely token: top-k and top-p have no effect.</source>
        <translation>T = 0 时主厨总是取最可能的词元：top-k 和 top-p 不起作用。</translation>
    </message>
    <message>
        <source>At draft T = 0 a node&apos;s children are copies: each i.i.d. draw from a greedy q is its most likely token. Raise the temperature for different children.</source>
        <translation>草稿 T = 0 时，一个节点的子节点彼此相同：从贪心的 q 独立同分布抽取，每次都是它最可能的词元。提高温度才会得到不同的子节点。</translation>
    </message>
    <message>
        <source>The draft was trained on another text than the target, so their tokens differ: pick a draft made from the target&apos;s corpus.</source>
        <translation>草稿模型与目标模型在不同的文本上训练，二者的词元不同：请选择用目标模型语料训练的草稿模型。</translation>
    </message>
    <message>
        <source>Choose a tokenizer</source>
        <translation>选择分词器</translation>
    </message>
    <message>
        <source>Hugging Face tokenizers (tokenizer.json *.json);;All files (*)</source>
        <translation>Hugging Face 分词器 (tokenizer.json *.json);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Loading the tokenizer and training the models on the corpus cut into its pieces; the session plays on until they are ready.</source>
        <translation>正在加载分词器，并在按其片段切分的语料上训练模型；在它们就绪之前，当前会话继续进行。</translation>
    </message>
    <message>
        <source>Open model &amp;folder…</source>
        <translation>打开模型文件夹(&amp;F)…</translation>
    </message>
    <message>
        <source>Open model folder</source>
        <translation>打开模型文件夹</translation>
    </message>
    <message>
        <source>Loading %1; the session plays on until it is ready.</source>
        <translation>正在加载 %1；加载完成前，当前会话继续进行。</translation>
    </message>
    <message>
        <source>Loading %1 … %2 %</source>
        <translation>正在加载 %1 … %2 %</translation>
    </message>
    <message>
        <source>Loading %1 and its models … %2 %</source>
        <translation>正在加载 %1 及其模型 … %2 %</translation>
    </message>
    <message>
        <source> · loading the next setup … %1 %</source>
        <translation> · 正在加载下一个设置 … %1 %</translation>
    </message>
    <message>
        <source> · loading %1 … %2 %</source>
        <translation> · 正在加载 %1 … %2 %</translation>
    </message>
    <message>
        <source>The draft cuts text into other tokens than the target (%1); pick a draft whose tokenizer.json is the target&apos;s.</source>
        <translation>草稿模型把文本切成的词元与目标模型不同（%1）；请选择 tokenizer.json 与目标模型相同的草稿模型。</translation>
    </message>
</context>
<context>
    <name>specdec::gui::MessageBanner</name>
    <message>
        <source>Dismiss</source>
        <translation>关闭</translation>
    </message>
</context>
<context>
    <name>specdec::gui::PlotsPanel</name>
    <message>
        <source>Acceptance rate α</source>
        <translation>接受率 α</translation>
    </message>
    <message>
        <source>Tokens per round</source>
        <translation>每轮词元数</translation>
    </message>
    <message>
        <source>Speedup</source>
        <translation>加速比</translation>
    </message>
    <message>
        <source>Acceptance by draft position</source>
        <translation>各草稿位置的接受率</translation>
    </message>
    <message>
        <source>this round</source>
        <translation>本轮</translation>
    </message>
    <message>
        <source>α&#x200d;&#x302; so far</source>
        <translation>累计 α&#x200d;&#x302;</translation>
    </message>
    <message>
        <source>mean β = Σ min(p, q)</source>
        <translation>平均 β = Σ min(p, q)</translation>
    </message>
    <message>
        <source>mean so far</source>
        <translation>累计平均</translation>
    </message>
    <message>
        <source>theory E[N] at α&#x200d;&#x302;</source>
        <translation>理论 E[N]（按 α&#x200d;&#x302;）</translation>
    </message>
    <message>
        <source>target passes saved</source>
        <translation>按目标前向次数</translation>
    </message>
    <message>
        <source>accelerator case (V = 1)</source>
        <translation>加速器情形（V = 1）</translation>
    </message>
    <message>
        <source>wall clock</source>
        <translation>实测耗时</translation>
    </message>
    <message>
        <source>accepted / tested</source>
        <translation>接受 / 检验</translation>
    </message>
    <message>
        <source>α&#x200d;&#x302;</source>
        <translation>α&#x200d;&#x302;</translation>
    </message>
    <message>
        <source>round</source>
        <translation>轮次</translation>
    </message>
    <message>
        <source>draft position</source>
        <translation>草稿位置</translation>
    </message>
    <message>
        <source>K this round (policy)</source>
        <translation>本轮 K（策略）</translation>
    </message>
    <message>
        <source>Three speedups, three reasons. Target passes saved: tokens per target pass (each pass commits a round). Accelerator case (V = 1): Theorem 3.8&apos;s prediction E[N] / (1 + K·c), a verification costing one step (the theory panel also predicts it with V(K+1) measured on this machine). Wall clock: baseline time / speculative time, measured.</source>
        <translation>三种加速比，三种原因。节省的目标计算：每次目标计算的词元数（每次计算提交一轮）。加速器情形（V = 1）：定理 3.8 的预测 E[N] / (1 + K·c)，假设一次验证只花一步（理论面板也给出用本机实测 V(K+1) 的预测）。墙钟：基线时间 / 投机时间，实测。</translation>
    </message>
</context>
<context>
    <name>specdec::gui::PredictBeforeReveal</name>
    <message>
        <source>Predict before &amp;reveal</source>
        <translation>先预测后揭晓(&amp;R)</translation>
    </message>
</context>
<context>
    <name>specdec::gui::QuizView</name>
    <message>
        <source>Question %1 of %2 · %3</source>
        <translation>第 %1 题 / 共 %2 题 · %3</translation>
    </message>
    <message>
        <source>choose all that apply</source>
        <translation>多选</translation>
    </message>
    <message>
        <source>choose one</source>
        <translation>单选</translation>
    </message>
    <message>
        <source>Answer: %1. %2</source>
        <translation>答案：%1。%2</translation>
    </message>
    <message>
        <source>Show me: %1</source>
        <translation>演示：%1</translation>
    </message>
    <message>
        <source>◀ Previous</source>
        <translation>◀ 上一题</translation>
    </message>
    <message>
        <source>Reveal the answer</source>
        <translation>揭晓答案</translation>
    </message>
    <message>
        <source>Show me</source>
        <translation>演示给我看</translation>
    </message>
    <message>
        <source>Next ▶</source>
        <translation>下一题 ▶</translation>
    </message>
</context>
<context>
    <name>specdec::gui::RaceRunner</name>
    <message>
        <source>tree %1</source>
        <translation>树 %1</translation>
    </message>
    <message>
        <source>Loading the models…</source>
        <translation>正在加载模型…</translation>
    </message>
    <message>
        <source>Loading the models … %1 %</source>
        <translation>正在加载模型 … %1 %</translation>
    </message>
    <message>
        <source>Racing…</source>
        <translation>比赛中…</translation>
    </message>
</context>
<context>
    <name>specdec::gui::RaceView</name>
    <message>
        <source>%1 tokens/s · %2 target calls</source>
        <translation>%1 词元/秒 · %2 次目标前向</translation>
    </message>
    <message numerus="yes">
        <source>%n round(s)</source>
        <translation>
            <numerusform>%n 轮</numerusform>
        </translation>
    </message>
    <message>
        <source>Stopped.</source>
        <translation>已停止。</translation>
    </message>
    <message numerus="yes">
        <source>Both finished: the texts are identical, character for character (%n token(s)).</source>
        <translation>
            <numerusform>两条赛道都已完成：文本逐字相同（%n 个词元）。</numerusform>
        </translation>
    </message>
    <message>
        <source>Both finished: the texts differ from character %1 on (above temperature 0 each lane draws its own samples: the same distribution, not the same text).</source>
        <translation>两条赛道都已完成：文本从第 %1 个字符起不同（温度高于 0 时每条赛道各自抽样：分布相同，文本不必相同）。</translation>
    </message>
    <message>
        <source>Speculative decoding finished first: %1× the tokens per second of the target alone.</source>
        <translation>投机解码先完成：每秒词元数是目标模型单独解码的 %1×。</translation>
    </message>
    <message>
        <source>The target alone finished first: speculative decoding ran at %1× its tokens per second.</source>
        <translation>目标模型单独解码先完成：投机解码的每秒词元数只有它的 %1×。</translation>
    </message>
    <message>
        <source>Tokens:</source>
        <translation>词元数：</translation>
    </message>
    <message>
        <source>Slow motion:</source>
        <translation>慢动作：</translation>
    </message>
    <message>
        <source>Both lanes are slowed by the same factor; 1× is the engine&apos;s own pace.</source>
        <translation>两条赛道按同一倍数放慢；1× 即引擎本身的速度。</translation>
    </message>
    <message>
        <source>Start the race</source>
        <translation>开始比赛</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>Target alone (autoregressive)</source>
        <translation>目标模型单独解码（自回归）</translation>
    </message>
    <message>
        <source>Speculative decoding</source>
        <translation>投机解码</translation>
    </message>
    <message>
        <source>Speculative decoding: draft %1, %2</source>
        <translation>投机解码：草稿 %1，%2</translation>
    </message>
    <message>
        <source>Target %1, KV cache %2. Both lanes continue the same prompt with the same seed and sampler; each lane&apos;s text appears at the pace its decoding took.</source>
        <translation>目标 %1，KV 缓存%2。两条赛道用相同的种子和采样设置续写同一提示词；每条赛道的文本按其解码实际用时的速度出现。</translation>
    </message>
    <message>
        <source>on</source>
        <translation>开</translation>
    </message>
    <message>
        <source>off</source>
        <translation>关</translation>
    </message>
    <message>
        <source>The race runs on the session&apos;s setup: its target, draft, prompt, seed and sampler.</source>
        <translation>比赛使用当前会话的设置：目标、草稿、提示词、种子与采样设置。</translation>
    </message>
</context>
<context>
    <name>specdec::gui::RoundView</name>
    <message>
        <source>prompt</source>
        <translation>提示词</translation>
    </message>
    <message>
        <source>accepted from the apprentice (draft)</source>
        <translation>学徒（草稿）写出并被接受</translation>
    </message>
    <message>
        <source>corrected from the residual</source>
        <translation>由残差修正</translation>
    </message>
    <message>
        <source>bonus from the head chef (target)</source>
        <translation>主厨（目标）给出的奖励</translation>
    </message>
    <message>
        <source>No round yet</source>
        <translation>尚无轮次</translation>
    </message>
    <message>
        <source>Press Space to play, or → to step one phase.</source>
        <translation>按空格键播放，或按 → 前进一个阶段。</translation>
    </message>
    <message>
        <source>Round %1</source>
        <translation>第 %1 轮</translation>
    </message>
    <message>
        <source>%1 or %2</source>
        <translation>%1或%2</translation>
    </message>
</context>
<context>
    <name>specdec::gui::SessionFiles</name>
    <message>
        <source>Save session</source>
        <translation>保存会话</translation>
    </message>
    <message>
        <source>Sessions (*.specdec.json *.json)</source>
        <translation>会话 (*.specdec.json *.json)</translation>
    </message>
    <message>
        <source>Open session</source>
        <translation>打开会话</translation>
    </message>
    <message>
        <source>&amp;Open session…</source>
        <translation>打开会话(&amp;O)…</translation>
    </message>
    <message>
        <source>&amp;Save session…</source>
        <translation>保存会话(&amp;S)…</translation>
    </message>
</context>
<context>
    <name>specdec::gui::SetupBar</name>
    <message>
        <source>n-gram, order %1</source>
        <translation>%1 元语法模型</translation>
    </message>
    <message>
        <source>uniform (knows nothing)</source>
        <translation>均匀分布（一无所知）</translation>
    </message>
    <message>
        <source>same as the target</source>
        <translation>与目标相同</translation>
    </message>
    <message>
        <source>Corpus</source>
        <translation>语料</translation>
    </message>
    <message>
        <source>Target</source>
        <translation>目标</translation>
    </message>
    <message>
        <source>Draft</source>
        <translation>草稿</translation>
    </message>
    <message>
        <source>Prompt</source>
        <translation>提示词</translation>
    </message>
    <message>
        <source>K</source>
        <translation>K</translation>
    </message>
    <message>
        <source>Temperature</source>
        <translation>温度</translation>
    </message>
    <message>
        <source>Draft T</source>
        <translation>草稿温度</translation>
    </message>
    <message>
        <source>Top-k</source>
        <translation>Top-k</translation>
    </message>
    <message>
        <source>Top-p</source>
        <translation>Top-p</translation>
    </message>
    <message>
        <source>Seed</source>
        <translation>种子</translation>
    </message>
    <message>
        <source>A built corpus or any UTF-8 text file (File ▸ Open corpus…, or drop a file).</source>
        <translation>已构建的语料或任意 UTF-8 文本文件（文件 ▸ 打开语料…，或直接拖入文件）。</translation>
    </message>
    <message>
        <source>The head chef: the model whose distribution the output follows exactly.</source>
        <translation>主厨：输出分布与之完全一致的模型。</translation>
    </message>
    <message>
        <source>The apprentice: a cheap model that drafts K tokens per round.</source>
        <translation>学徒：每轮起草 K 个词元的廉价模型。</translation>
    </message>
    <message>
        <source>text to continue (empty: start from nothing)</source>
        <translation>要续写的文本（留空：从头开始）</translation>
    </message>
    <message>
        <source>Draft length K: tokens the apprentice writes per round.</source>
        <translation>草稿长度 K：学徒每轮写出的词元数。</translation>
    </message>
    <message>
        <source>Target temperature; 0 = greedy (equality checks instead of dice).</source>
        <translation>目标温度；0 = 贪心（用相等检验代替掷骰）。</translation>
    </message>
    <message>
        <source>same</source>
        <translation>相同</translation>
    </message>
    <message>
        <source>Draft temperature (&quot;same&quot;: the target&apos;s).</source>
        <translation>草稿温度（“相同”：与目标一致）。</translation>
    </message>
    <message>
        <source>off</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>Keep only the k most probable tokens (applied to p and q).</source>
        <translation>只保留最可能的 k 个词元（同时作用于 p 和 q）。</translation>
    </message>
    <message>
        <source>Nucleus sampling mass (1 = off; applied to p and q).</source>
        <translation>核采样概率质量（1 = 关闭；同时作用于 p 和 q）。</translation>
    </message>
    <message>
        <source>The same seed replays the same run.</source>
        <translation>相同的种子重现相同的运行。</translation>
    </message>
    <message>
        <source>Tree shape: %1</source>
        <translation>树形状：%1</translation>
    </message>
    <message>
        <source>Seed: a whole number from 0 to 18446744073709551615</source>
        <translation>种子：0 到 18446744073709551615 之间的整数</translation>
    </message>
    <message>
        <source>Tree</source>
        <translation>树</translation>
    </message>
    <message>
        <source>chain</source>
        <translation>链</translation>
    </message>
    <message>
        <source>KV cache</source>
        <translation>KV 缓存</translation>
    </message>
    <message>
        <source>Token tree: children per depth, e.g. 3,2,1 (3 drafts, 2 under each, 1 under each of those: 15 nodes, verified in one pass). Empty: a chain of K.</source>
        <translation>词元树：每层的子节点数，如 3,2,1（3 个草稿，每个下面 2 个，再各 1 个：共 15 个节点，一次前向传播验证）。留空：长度为 K 的链。</translation>
    </message>
    <message>
        <source>On: each ONNX model keeps its keys and values between calls, a draft step feeds one token, a verification K + 1, and a rejection rolls the cache back (what real engines do). Off: every call recomputes its whole window; the baseline is then the uncached decoder, about 20× slower than a real engine on 300 tokens of kjv (specdec bench --kv-cache-speedup), and the wall-clock speedup flatters speculation. n-gram models keep their context either way.</source>
        <translation>开：每个 ONNX 模型在两次调用之间保留其键和值，学徒每步只输入一个词元，验证输入 K + 1 个，拒绝后缓存回滚（真实推理引擎的做法）。关：每次调用都重新计算整个窗口；基线于是成了不带缓存的解码器，在 kjv 的 300 个词元上比真实引擎慢约 20 倍（specdec bench --kv-cache-speedup），墙钟加速比因此偏向投机。n-gram 模型无论开关都保留其上下文。</translation>
    </message>
    <message>
        <source>Tokenizer</source>
        <translation>分词器</translation>
    </message>
    <message>
        <source>Characters</source>
        <translation>字符</translation>
    </message>
    <message>
        <source>Every token is one character (Unicode code point) of the corpus.</source>
        <translation>每个词元是语料中的一个字符（Unicode 码位）。</translation>
    </message>
    <message>
        <source>tokenizer.json…</source>
        <translation>tokenizer.json…</translation>
    </message>
    <message>
        <source>Choose a Hugging Face tokenizer.json file.</source>
        <translation>选择一个 Hugging Face 的 tokenizer.json 文件。</translation>
    </message>
    <message>
        <source>How the text is cut into tokens, shared by target and draft: characters, or the subword pieces of a real LLM&apos;s tokenizer.json (an n-gram model is trained on the corpus cut that way).</source>
        <translation>文本如何切分为词元，目标与草稿共用：按字符，或按真实大模型 tokenizer.json 的子词片段（n 元语法模型在如此切分的语料上训练）。</translation>
    </message>
    <message>
        <source>Weights: %1 MB on disk (%2).</source>
        <translation>权重：磁盘上 %1 MB（%2）。</translation>
    </message>
    <message>
        <source>Parameters: %1.</source>
        <translation>参数个数：%1。</translation>
    </message>
    <message>
        <source>One step (one token): %1 ms, measured when the session loaded, where a %2-token run&apos;s calls are.</source>
        <translation>一步（一个词元）：%1 毫秒，会话加载时在 %2 词元运行的调用位置测得。</translation>
    </message>
</context>
<context>
    <name>specdec::gui::ShortcutList</name>
    <message>
        <source>Shortcut</source>
        <translation>快捷键</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>操作</translation>
    </message>
    <message>
        <source>Menu</source>
        <translation>菜单</translation>
    </message>
</context>
<context>
    <name>specdec::gui::ShowMe</name>
    <message>
        <source>Theory at α = %1, K = %2: E[N] = %3 tokens per round.</source>
        <translation>理论：α = %1、K = %2 时，E[N] = 每轮 %3 个词元。</translation>
    </message>
    <message>
        <source>Measured run: %1 rounds, %2 tokens in %3 target passes, α&#x200d;&#x302; = %4, %5 tokens per round.</source>
        <translation>实测运行：%1 轮，%3 次目标前向写出 %2 个词元，α&#x200d;&#x302; = %4，每轮 %5 个词元。</translation>
    </message>
    <message>
        <source>%1: α&#x200d;&#x302; = %2, %3 tokens per target pass, c = %4.</source>
        <translation>%1：α&#x200d;&#x302; = %2，每次目标前向 %3 个词元，c = %4。</translation>
    </message>
    <message>
        <source>Token %1: p = %2 &lt; q = %3, so p/q = %4; accepted %5 times of ≈ %6 drafts = %7.</source>
        <translation>词元 %1：p = %2 &lt; q = %3，所以 p/q = %4；约 %6 次起草中被接受 %5 次 = %7。</translation>
    </message>
    <message>
        <source>%1: α&#x200d;&#x302; = %2, %3 tokens per target pass, wall clock %4× (c = %5).</source>
        <translation>%1：α&#x200d;&#x302; = %2，每次目标前向 %3 个词元，墙钟 %4×（c = %5）。</translation>
    </message>
</context>
<context>
    <name>specdec::gui::TheoryExplorer</name>
    <message>
        <source>α (acceptance) = %1</source>
        <translation>α（接受率）= %1</translation>
    </message>
    <message>
        <source>K (draft length) = %1</source>
        <translation>K（草稿长度）= %1</translation>
    </message>
    <message>
        <source>c = T_draft / T_target = %1</source>
        <translation>c = T_草稿 / T_目标 = %1</translation>
    </message>
    <message>
        <source>E[N] = (1 − α^(K+1)) / (1 − α) = %1 tokens per round; speedup (1 − α^(K+1)) / ((1 − α)(Kc + 1)) = %2×; best K here: %3 (%4×).</source>
        <translation>E[N] = (1 − α^(K+1)) / (1 − α) = 每轮 %1 个词元；加速比 (1 − α^(K+1)) / ((1 − α)(Kc + 1)) = %2×；此处最佳 K：%3（%4×）。</translation>
    </message>
    <message>
        <source>E[tokens per round] against K</source>
        <translation>E[每轮词元数] 随 K 变化</translation>
    </message>
    <message>
        <source>Speedup against K</source>
        <translation>加速比随 K 变化</translation>
    </message>
    <message>
        <source>Speedup against α</source>
        <translation>加速比随 α 变化</translation>
    </message>
    <message>
        <source>K</source>
        <translation>K</translation>
    </message>
    <message>
        <source>α</source>
        <translation>α</translation>
    </message>
    <message>
        <source>E[N]</source>
        <translation>E[N]</translation>
    </message>
    <message>
        <source>cost-model speedup</source>
        <translation>成本模型加速比</translation>
    </message>
    <message>
        <source>sliders</source>
        <translation>滑块</translation>
    </message>
    <message>
        <source>best K</source>
        <translation>最佳 K</translation>
    </message>
    <message>
        <source>your runs</source>
        <translation>你的运行</translation>
    </message>
    <message>
        <source>E[N] = %1 tokens per round; a verification of K + 1 = %2 positions costs V = %3 steps, so S = E[N] / (V(K+1) + Kc) = %4× (Theorem 3.8, V = 1: %5×); best K: %6 (%7×), under Theorem 3.8: %8.</source>
        <translation>E[N] = 每轮 %1 个词元；验证 K + 1 = %2 个位置的代价为 V = %3 步，因此 S = E[N] / (V(K+1) + Kc) = %4×（定理 3.8，V = 1：%5×）；最佳 K：%6（%7×），按定理 3.8：%8。</translation>
    </message>
    <message>
        <source>Theorem 3.8 (V = 1)</source>
        <translation>定理 3.8（V = 1）</translation>
    </message>
    <message>
        <source>Hardware</source>
        <translation>硬件</translation>
    </message>
    <message>
        <source>Theorem 3.8: a verification costs one step (V = 1)</source>
        <translation>定理 3.8：一次验证只花一步（V = 1）</translation>
    </message>
    <message>
        <source>this machine (measured V and c; start a session first)</source>
        <translation>本机（实测的 V 和 c；请先开始一次会话）</translation>
    </message>
    <message>
        <source>this machine (measured V and c)</source>
        <translation>本机（实测的 V 和 c）</translation>
    </message>
    <message>
        <source>memory-bound accelerator (V = 1 up to the ridge point)</source>
        <translation>受内存带宽限制的加速器（到拐点之前 V = 1）</translation>
    </message>
    <message>
        <source>What verifying K + 1 positions costs in target steps, V(K+1): S = E[N] / (V(K+1) + Kc).</source>
        <translation>验证 K + 1 个位置相当于目标模型走几步，即 V(K+1)：S = E[N] / (V(K+1) + Kc)。</translation>
    </message>
    <message>
        <source> rows</source>
        <translation> 行</translation>
    </message>
    <message>
        <source>Ridge point: the rows per call up to which a step is memory-bound (peak FLOP/s ÷ memory bandwidth, about 150 on a datacentre GPU in fp16); past it V grows with the rows.</source>
        <translation>拐点：每次调用的行数在此之内，一步受内存带宽限制（峰值 FLOP/s ÷ 内存带宽，数据中心 GPU 上 fp16 约为 150）；超过它，V 随行数增长。</translation>
    </message>
    <message>
        <source>your runs, measured</source>
        <translation>你的运行（实测）</translation>
    </message>
    <message>
        <source>your runs, predicted</source>
        <translation>你的运行（预测）</translation>
    </message>
</context>
<context>
    <name>specdec::gui::TheoryPanel</name>
    <message>
        <source>predicted: E[N] / (V(K+1) + K·c) = %1 — a round&apos;s cost in target steps: in this run a verification of %2 positions took V(%2) = %3 baseline steps and a draft call c = %4 of a step</source>
        <translation>预测：E[N] / (V(K+1) + K·c) = %1——以目标步数计的一轮成本：本次运行中验证 %2 个位置花了 V(%2) = %3 个基线步，一次草稿调用花 c = %4 步</translation>
    </message>
    <message>
        <source>predicted: E[N] / (V(K+1) + K·c) = %1 — a round&apos;s cost in target steps, with V(%2) = %3 (verifying %2 positions) and c = T&lt;sub&gt;draft&lt;/sub&gt;(1) / T&lt;sub&gt;target&lt;/sub&gt;(1) = %4 measured before the first round, where a %5-token run&apos;s calls are</source>
        <translation>预测：E[N] / (V(K+1) + K·c) = %1——以目标步数计的一轮成本，V(%2) = %3（验证 %2 个位置），c = T&lt;sub&gt;草稿&lt;/sub&gt;(1) / T&lt;sub&gt;目标&lt;/sub&gt;(1) = %4，均在第一轮之前于 %5 词元运行的调用位置实测</translation>
    </message>
    <message>
        <source>Acceptance</source>
        <translation>接受</translation>
    </message>
    <message>
        <source>Play a round to fill in the numbers.</source>
        <translation>播放一轮以填入数字。</translation>
    </message>
    <message>
        <source>α = E[Σ min(p, q)] = 1 − E[TV]; mean β here: &lt;b&gt;%1&lt;/b&gt;</source>
        <translation>α = E[Σ min(p, q)] = 1 − E[TV]；此处平均 β：&lt;b&gt;%1&lt;/b&gt;</translation>
    </message>
    <message>
        <source>Tokens per round</source>
        <translation>每轮词元数</translation>
    </message>
    <message>
        <source>measured: &lt;b&gt;%1&lt;/b&gt; tokens per round over %2 rounds</source>
        <translation>实测：%2 轮中每轮 &lt;b&gt;%1&lt;/b&gt; 个词元</translation>
    </message>
    <message>
        <source>best K at this α and c: &lt;b&gt;%1&lt;/b&gt; (S = %2×)</source>
        <translation>此 α 与 c 下的最佳 K：&lt;b&gt;%1&lt;/b&gt;（S = %2×）</translation>
    </message>
    <message>
        <source>Reference</source>
        <translation>参考值</translation>
    </message>
    <message>
        <source>α = 0.8, K = 4 → E[N] = %1</source>
        <translation>α = 0.8，K = 4 → E[N] = %1</translation>
    </message>
    <message>
        <source>Token tree (SpecInfer)</source>
        <translation>令牌树（SpecInfer）</translation>
    </message>
    <message>
        <source>shape %1: %2 nodes drafted per round, all verified in &lt;b&gt;one&lt;/b&gt; target pass</source>
        <translation>形状 %1：每轮起草 %2 个节点，全部在&lt;b&gt;一次&lt;/b&gt;目标模型前向中验证</translation>
    </message>
    <message>
        <source>a node&apos;s k children are drawn i.i.d. from q and tested one by one against p′:</source>
        <translation>一个节点的 k 个子节点从 q 独立同分布抽取，依次对照 p′ 检验：</translation>
    </message>
    <message>
        <source>last round, per tested depth: &lt;b&gt;%1&lt;/b&gt;</source>
        <translation>上一轮，各检验深度：&lt;b&gt;%1&lt;/b&gt;</translation>
    </message>
    <message>
        <source>measured: &lt;b&gt;%1&lt;/b&gt; tokens per round (one target pass each) over %2 rounds</source>
        <translation>实测：%2 轮中每轮 &lt;b&gt;%1&lt;/b&gt; 个令牌（每轮一次目标前向）</translation>
    </message>
    <message>
        <source>a chain of the same depth at this α: E[N] = (1 − α&lt;sup&gt;%1&lt;/sup&gt;) / (1 − α) = &lt;b&gt;%2&lt;/b&gt;</source>
        <translation>同深度的链在此 α 下：E[N] = (1 − α&lt;sup&gt;%1&lt;/sup&gt;) / (1 − α) = &lt;b&gt;%2&lt;/b&gt;</translation>
    </message>
    <message>
        <source>nodes drafted per accepted token: &lt;b&gt;%1&lt;/b&gt;</source>
        <translation>每个被接受令牌的起草节点数：&lt;b&gt;%1&lt;/b&gt;</translation>
    </message>
    <message>
        <source>Thm 3.8 and its best K are for chains (one draft per depth); a tree pays more draft and verification work for each pass.</source>
        <translation>定理 3.8 及其最佳 K 针对链（每个深度一个草稿）；树在每次前向中付出更多的起草与验证工作。</translation>
    </message>
    <message>
        <source>%1 passes more than rounds: past its context the target refills its window (one more pass each), so tokens per pass is below tokens per round</source>
        <translation>计算次数比轮数多 %1 次：超出上下文后，目标模型会重新填充窗口（每次多一次计算），因此每次计算的词元数低于每轮词元数</translation>
    </message>
    <message>
        <source>Speedup: target passes, predicted, measured</source>
        <translation>加速比：目标计算次数、预测、实测</translation>
    </message>
    <message>
        <source>best K with V and c measured here: &lt;b&gt;%1&lt;/b&gt; (S = %2×); in the accelerator case (V = 1): %3 (S = %4×)</source>
        <translation>按本机实测的 V 和 c，最佳 K：&lt;b&gt;%1&lt;/b&gt;（S = %2×）；加速器情形（V = 1）：%3（S = %4×）</translation>
    </message>
    <message>
        <source>target passes: %1 tokens / %2 passes = &lt;b&gt;%3×&lt;/b&gt; — each pass of the target commits the round&apos;s accepted drafts and one token of its own</source>
        <translation>目标计算：%1 个词元 / %2 次计算 = &lt;b&gt;%3×&lt;/b&gt;——目标每算一次，就提交本轮被接受的草稿和它自己的一个词元</translation>
    </message>
    <message>
        <source>predicted (Thm 3.8, V = 1): S = E[N] / (1 + K·c) = %1 / (1 + %2 · %3) = &lt;b&gt;%4×&lt;/b&gt;, c = T&lt;sub&gt;draft&lt;/sub&gt; / T&lt;sub&gt;target&lt;/sub&gt; per call in this run</source>
        <translation>预测（定理 3.8，V = 1）：S = E[N] / (1 + K·c) = %1 / (1 + %2 · %3) = &lt;b&gt;%4×&lt;/b&gt;，c = 本次运行中每次调用的 T&lt;sub&gt;草稿&lt;/sub&gt; / T&lt;sub&gt;目标&lt;/sub&gt;</translation>
    </message>
    <message>
        <source>accelerator case (V = 1, Thm 3.8): %1 / (1 + %2 · %3) = %4× — where verifying %5 positions costs one step, as on a memory-bound GPU</source>
        <translation>加速器情形（V = 1，定理 3.8）：%1 / (1 + %2 · %3) = %4×——验证 %5 个位置只花一步，如受内存带宽限制的 GPU</translation>
    </message>
    <message>
        <source>measured: baseline time / speculative time = %1 s / %2 s = &lt;b&gt;%3×&lt;/b&gt; (wall clock)</source>
        <translation>实测：基线时间 / 投机时间 = %1 秒 / %2 秒 = &lt;b&gt;%3×&lt;/b&gt;（墙钟）</translation>
    </message>
    <message>
        <source>ms per call: draft %1 · verification %2</source>
        <translation>每次调用毫秒数：草稿 %1 · 验证 %2</translation>
    </message>
    <message>
        <source>ms per call: draft %1 · verification %2 · baseline step %3</source>
        <translation>每次调用毫秒数：草稿 %1 · 验证 %2 · 基线一步 %3</translation>
    </message>
    <message>
        <source>tokens per second: speculative %1 · target alone %2</source>
        <translation>每秒词元数：投机 %1 · 仅目标 %2</translation>
    </message>
    <message>
        <source>Why slower: a round takes %1 ms (a verification of %2 positions, %3 ms = %4 baseline steps, and %5 draft calls, %6 ms) for %7 tokens, %8 ms per token; the target alone takes %9 ms per token. A pass is not free here.</source>
        <translation>为什么更慢：一轮用 %1 毫秒（验证 %2 个位置 %3 毫秒 = %4 个基线步，加 %5 次草稿调用 %6 毫秒），产出 %7 个词元，每词元 %8 毫秒；目标单独生成每词元 %9 毫秒。在这里，一次计算并不免费。</translation>
    </message>
    <message>
        <source>KV cache off: every call recomputes its window; the baseline is then the uncached decoder, about 20× slower than a real engine on 300 tokens of kjv, so the wall clock flatters speculation.</source>
        <translation>KV 缓存关：每次调用都重新计算它的窗口；基线于是成了不带缓存的解码器，在 kjv 的 300 个词元上比真实引擎慢约 20 倍，所以墙钟加速比偏向投机。</translation>
    </message>
</context>
<context>
    <name>specdec::gui::TimelineModel</name>
    <message>
        <source>Round %1: %2 of %3 drafts accepted, %4 tokens committed (“%5”). Click to replay it.</source>
        <translation>第 %1 轮：%3 个草稿中接受 %2 个，提交 %4 个词元（“%5”）。点击重放。</translation>
    </message>
    <message>
        <source>Round %1: on screen now. Click to replay it from its first phase.</source>
        <translation>第 %1 轮：正在显示。点击从第一个阶段重放。</translation>
    </message>
    <message>
        <source>Round %1: older than the %2 rounds kept; its numbers are in the totals only.</source>
        <translation>第 %1 轮：早于保留的 %2 轮，它的数字只计入总计。</translation>
    </message>
</context>
<context>
    <name>specdec::gui::ToolWindows</name>
    <message>
        <source>&amp;Presenter mode</source>
        <translation>演示模式(&amp;P)</translation>
    </message>
    <message>
        <source>Leave presenter mode</source>
        <translation>退出演示模式</translation>
    </message>
    <message>
        <source>Larger text (presenter mode)</source>
        <translation>放大文字（演示模式）</translation>
    </message>
    <message>
        <source>Smaller text (presenter mode)</source>
        <translation>缩小文字（演示模式）</translation>
    </message>
</context>
<context>
    <name>specdec::gui::TransportBar</name>
    <message>
        <source>Pause</source>
        <translation>暂停</translation>
    </message>
    <message>
        <source>Play</source>
        <translation>播放</translation>
    </message>
    <message>
        <source>Previous phase</source>
        <translation>上一阶段</translation>
    </message>
    <message>
        <source>Next phase</source>
        <translation>下一阶段</translation>
    </message>
    <message>
        <source>Next round</source>
        <translation>下一轮</translation>
    </message>
    <message>
        <source>Reset to the prompt</source>
        <translation>重置到提示词</translation>
    </message>
    <message>
        <source>Speed</source>
        <translation>速度</translation>
    </message>
    <message>
        <source>As fast as the engine runs</source>
        <translation>引擎能跑多快就多快</translation>
    </message>
    <message>
        <source>%1 ms per phase</source>
        <translation>每阶段 %1 毫秒</translation>
    </message>
</context>
<context>
    <name>specdec::gui::TreeView</name>
    <message>
        <source>The apprentice drafts a tree, one depth per call: every node gets its children drawn independently from q at that node.</source>
        <translation>学徒起草一棵树，每次调用一层：每个节点的子节点都从该节点的 q 独立抽取。</translation>
    </message>
    <message>
        <source>The head chef scores every node of the tree in one forward pass (one row per root-to-leaf path); each node gets p(x).</source>
        <translation>主厨一次前向传播为树的每个节点打分（每条根到叶路径一行）；每个节点得到 p(x)。</translation>
    </message>
    <message>
        <source>Greedy: at each node the child equal to the target&apos;s most probable token is kept.</source>
        <translation>贪心：在每个节点保留等于目标最可能词元的子节点。</translation>
    </message>
    <message>
        <source>From the top, children are tested one by one: keep x when u &lt; min(1, p′(x)/q(x)); after each rejection p′ becomes norm(max(0, p′ − q)).</source>
        <translation>从上往下逐个检验子节点：u &lt; min(1, p′(x)/q(x)) 时保留 x；每次拒绝后 p′ 变为 norm(max(0, p′ − q))。</translation>
    </message>
    <message>
        <source>No child matched: the target&apos;s most probable token is taken.</source>
        <translation>没有子节点匹配：取目标最可能的词元。</translation>
    </message>
    <message>
        <source>Every child of the node was rejected: the correction is drawn from the last p′.</source>
        <translation>该节点的子节点全部被拒绝：从最后的 p′ 抽取修正词元。</translation>
    </message>
    <message>
        <source>A leaf was accepted: p after it gives one more token for free.</source>
        <translation>一个叶节点被接受：它之后的 p 免费多给一个词元。</translation>
    </message>
    <message>
        <source>The accepted path and the correction or bonus join the text; the other branches are discarded.</source>
        <translation>被接受的路径和修正或奖励词元加入文本；其他分支被丢弃。</translation>
    </message>
    <message>
        <source>context</source>
        <translation>上下文</translation>
    </message>
    <message>
        <source>p&apos;%1 u%2</source>
        <translation>p&apos;%1 u%2</translation>
    </message>
    <message>
        <source>q%1 p%2</source>
        <translation>q%1 p%2</translation>
    </message>
    <message>
        <source>q%1</source>
        <translation>q%1</translation>
    </message>
    <message>
        <source>from p&apos;</source>
        <translation>取自 p&apos;</translation>
    </message>
    <message>
        <source>bonus</source>
        <translation>奖励</translation>
    </message>
</context>
<context>
    <name>specdec::gui::EngineHost</name>
    <message>
        <source>an unknown error</source>
        <translation>未知错误</translation>
    </message>
</context>
<context>
    <name>specdec::gui::GuardedApplication</name>
    <message>
        <source>an unknown error</source>
        <translation>未知错误</translation>
    </message>
</context>
<context>
    <name>TokenText</name>
    <message>
        <source>“%1”: token %2</source>
        <translation>“%1”：词元 %2</translation>
    </message>
    <message>
        <source>in the tokenizer.json: “%1”</source>
        <translation>tokenizer.json 中写作：“%1”</translation>
    </message>
    <message>
        <source>A special token: it marks, it writes no text.</source>
        <translation>特殊词元：只作标记，不写出文字。</translation>
    </message>
    <message>
        <source>Bytes of a character split into several tokens: the character appears when its last byte comes.</source>
        <translation>一个字符被拆成多个词元后的字节：最后一个字节到来时，这个字符才显示出来。</translation>
    </message>
    <message>
        <source>Part of a character: its other bytes come in the next or the previous token.</source>
        <translation>字符的一部分：其余字节在前一个或后一个词元中。</translation>
    </message>
</context>
<context>
    <name>specdec::gui::TranscriptView</name>
    <message>
        <source>Bytes of a character not yet complete: it appears when its last byte comes.</source>
        <translation>尚未完整的字符的字节：最后一个字节到来时，这个字符才显示出来。</translation>
    </message>
</context>
</TS>
