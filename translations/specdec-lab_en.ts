<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en">
<context>
    <name>CardPainter</name>
    <message>
        <source>x = argmax p</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>x ≠ argmax p</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>discarded</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>CardStrip</name>
    <message>
        <source>residual</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>bonus</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>CommandLine</name>
    <message>
        <source>Speculative decoding lab: run it for real and see every step.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Corpus: a built corpus name (kjv, tang-song) or a UTF-8 file.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>name|path</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Target model spec (ngram:6, onnx:PATH, hf:FOLDER).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>spec</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Draft model spec (ngram:2, uniform, same, onnx:PATH, hf:FOLDER).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Train the draft on another corpus.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Text to continue.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>text</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Draft length K (1-64).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>K</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Target temperature; 0 = greedy.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>T</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Draft temperature (default: the target&apos;s).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Keep the k most probable tokens (0 = off).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>k</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nucleus sampling mass in (0, 1].</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>p</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Random seed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>n</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Render the window offscreen to FILE (PNG) and exit.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>FILE</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Play rounds at full speed offscreen and print timing JSON.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rounds to play before the screenshot or in the benchmark.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>N</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Phase of the last round in the screenshot: draft, verify, dice, residual, bonus or commit.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>NAME</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Card whose distributions the screenshot shows (1..K+1).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Window size for --screenshot, e.g. 1600x1000.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>WxH</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Interface language: en or zh_CN.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>code</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--%1 expects a number, got &apos;%2&apos;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--phase must be draft, verify, dice, residual, bonus or commit, got &apos;%1&apos;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--size expects WxH with sides from 1 to %1, e.g. 1600x1000, got &apos;%2&apos;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--%1 expects a whole number, got &apos;%2&apos;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--%1 is out of range: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--seed expects a whole number from 0 to 18446744073709551615, got &apos;%1&apos;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--quiz expects a question number from 1, got &apos;%1&apos;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open a lesson file (see docs/lessons.md) and run its setup.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open the quiz, at question N (default 1).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Start in presenter mode (large text, one stage at a time; F5 or Esc leaves).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Token tree: children per depth, e.g. 3,2,1 (default: a chain of K).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>shape</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The benchmark reports resident memory after N rounds and at the end over it (default 20000).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--rss-at expects a number of rounds from 1, got &apos;%1&apos;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Write the handout of the round shown to FILE (PDF) and exit.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Write the quiz sheet (questions, then answers) to FILE (PDF) and exit.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Predict before reveal: each verdict of the dice waits for → (P toggles it).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>With --presenter: the stage shown first: round, distributions, plots (the live plots), numbers (the theory panel), lab, arena, theory (the theory explorer), quiz or race.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--stage must be one of %1, got &apos;%2&apos;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--stage shows a stage of presenter mode: give --presenter too</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tokenizer shared by target and draft: chars (characters) or a tokenizer.json.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>chars|path</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Phase</name>
    <message>
        <source>Draft</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Verify</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Dice</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Residual</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Bonus</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Commit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The apprentice (draft model) writes K tokens, one call each; each card shows q(x).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The head chef (target model) scores all K + 1 positions in one forward pass; each card gets p(x).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Greedy: each card is kept when it equals the target&apos;s most probable token.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Each card rolls u ~ U[0, 1) and is kept when u &lt; min(1, p/q); the first failure stops the test.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The rejected card is replaced by the target&apos;s most probable token.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The rejected card is replaced by a draw from the residual norm(max(0, p − q)).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>All K passed: the (K + 1)-th target distribution gives one more token for free.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Accepted tokens and the corrected or bonus token join the text.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>specdec::TreeVariant</name>
    <message>
        <source>Each rejected child takes its overlap out of p: the next child is tested against norm(max(0, p&apos; - q)), and the output follows p exactly.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Testing every child against the original p gives the overlap min(p, q) one chance per child: tokens where the draft is confident are over-represented.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Medusa&apos;s typical acceptance keeps any child the target finds plausible enough: faster, but the output no longer follows p.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>specdec::Variant</name>
    <message>
        <source>Accept with probability min(1, p/q), resample rejections from norm(max(0, p - q)): the output follows p exactly.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Every draft token is kept, so the output follows the draft&apos;s q, not the target&apos;s p.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Keeping only the target&apos;s argmax drops every other token p would have sampled at T &gt; 0.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>After a rejection, drawing from p adds p&apos;s mass on top of what acceptance already gave: tokens where q &gt; p are over-represented.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>max(0, p - q) sums to 1 - beta, not 1: the missing mass falls back on the draft token.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The draft sampled from its tempered q, but the test divides by the untempered q: the ratio p/q is wrong for every token.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>specdec::app::ExperimentNotes</name>
    <message>
        <source>The draft %1 was trained on too small a text for its order: in its %2 characters each context of %3 characters occurs %4 times on average, so it can only repeat the text.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The target %1 was trained on too small a text for its order: in its %2 characters each context of %3 characters occurs %4 times on average, so it can only repeat the text.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Use ngram:%1 or a longer text.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Use a longer text.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>specdec::gui</name>
    <message>
        <source>1. The draft writes K tokens x₁, x₂, …, each drawn from its distribution q.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>2. The target scores all K + 1 positions in one forward pass: p at each of them.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>3. Token i passes when a uniform u &lt; min(1, p(xᵢ) / q(xᵢ)); at T = 0, when xᵢ = argmax p.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>4. At the first failure a replacement is drawn from norm(max(0, p − q)); the round ends.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>5. If all K pass, a bonus token is drawn from p at position K + 1. The output follows p exactly.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>draft (apprentice), q</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>target (head chef), p</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>accepted</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>rejected</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>residual (replacement)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>bonus</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>discarded</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The algorithm in five lines</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Colours</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Name: ____________________   Tick one box, or every box where the question says so.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>choose all that apply</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>choose one</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Answers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>In the app: %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>specdec::gui::ActionRegistry</name>
    <message>
        <source>&amp;File</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Play</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Language</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Classroom</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>specdec::gui::ArenaLane</name>
    <message>
        <source>%1 tokens · %2 target passes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>T &gt; 0: a different sample of the same distribution</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>✓ same text as the target</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>✗ differs from the target&apos;s text</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;tree %1&lt;/b&gt;: %2 nodes, one target pass</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>accepted path per round (of %1):</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>mean %1 + 1 correction or bonus</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Each round drafts the whole tree and the target scores every node in one pass; the dice then walk down it, and the number is how deep the accepted path went (0 to %1) before the correction or bonus token.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>specdec::gui::ArenaRunner</name>
    <message>
        <source>The arena takes 2 to 6 lanes, got %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>tree %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>specdec::gui::ArenaTool</name>
    <message>
        <source>Playing…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Each lane: same target, prompt, seed and settings.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Loading the target and %1 drafts…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Loading the target and %1 drafts … %2 %</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>specdec::gui::ArenaView</name>
    <message>
        <source>Target %1 on %2; %3 tokens per lane; same prompt, seed and sampler settings.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Load lanes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Step</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Play to the end</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>One round per lane</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Aligned by tokens so far</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Draft</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>α&#x200d;&#x302;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>c</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tokens written against target passes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>target passes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Acceptance α&#x200d;&#x302; (cumulative)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>round</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Draft length K per round</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Lanes, one per line: a draft (ngram:N, onnx:PATH, uniform, same, lookup:N) and optionally a policy (heuristic, confidence:0.4, threshold:0.6) or a token tree (tree:3,2,1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tokens
/ round</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Speedup
(passes)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Speedup
(V = 1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Speedup
(wall clock)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Draft ms
/ call</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Target
passes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Drafted /
accepted</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tokens per target pass: each pass commits a round&apos;s accepted drafts and one token of its own.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Theorem 3.8: E[N] / (1 + K·c), a verification of K + 1 positions costing one step (the accelerator case).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Baseline time / speculative time, measured: below the passes when a verification costs more than a step or the draft is not cheap.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>specdec::gui::BarEditor</name>
    <message>
        <source>Drag a bar up or down to change its probability; the other bars rescale so the total stays 1.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>specdec::gui::CacheStrip</name>
    <message>
        <source>target cache, tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>draft cache, tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: %2 → %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> → %1 (%2 discarded)</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>, %n window refill(s)</source>
        <translation>
            <numerusform>, %n window refill</numerusform>
            <numerusform>, %n window refills</numerusform>
        </translation>
    </message>
    <message>
        <source>target</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>draft</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> → %1 (−%2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>, %n refill(s)</source>
        <translation>
            <numerusform>, %n refill</numerusform>
            <numerusform>, %n refills</numerusform>
        </translation>
    </message>
    <message>
        <source>The numbers count tokens of text in each model&apos;s state: the prompt, the committed tokens and the drafts being checked. A model attends to at most its context of them (the last positions); past it, it refills its window.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>specdec::gui::ClassroomTools</name>
    <message>
        <source>Race: target alone vs speculative</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Race</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Lessons</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Draft arena</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Lossless lab</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Theory explorer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Play a round in the main window first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>others</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>session</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open &amp;lesson…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Quiz</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open lesson</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Lessons (*.lesson.json *.json)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;User guide</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Keyboard shortcuts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Reset layout and setup</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Round</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Distributions</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Live plots</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Theory</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>User guide</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Keyboard shortcuts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Back to my session</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A demonstration replaced your session (setup and position); it is kept.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>specdec::gui::DistributionView</name>
    <message>
        <source>Full distributions are kept for recent rounds only; the numbers above come from the trace.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>others</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>q: apprentice (draft)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>p: head chef (target)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>residual norm(max(0, p − q))</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>min(p, q): overlap</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Click a card to see its distributions</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Card #%1 “%2”</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>token x</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>corrected token</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>residual r(x)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>replaces card</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>bonus token</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>position K+1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>scored in the same target pass</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Correction “%1” from the residual</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Bonus “%1” from p at position K+1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>p at position K+1 (scored in the same pass)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>p′: what the child was tested against</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Correction “%1” from the last p′</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Bonus “%1” from p after the accepted leaf</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Node “%1”: depth %2, child %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Click a node of the tree to see its distributions</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>all children rejected at depth</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>last p′: the correction is drawn from it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Round %1 · %2</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>specdec::gui::ExportDialogs</name>
    <message>
        <source>Export trace</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CSV (*.csv);;JSON (*.json)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>plot %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Live plots</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Distributions</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Draft arena</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Theory explorer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Lossless lab</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export plot</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Plot:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PNG (*.png);;SVG (*.svg);;PDF (*.pdf)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PNG (*.png);;PDF (*.pdf)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Speculative decoding — round %1, %2 (%3 / %4)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Corpus: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Target: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Draft: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>K = %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>T = %1 (target), %2 (draft)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Seed %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No prompt: the text starts from nothing</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Prompt: &quot;%1&quot;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rounds: %1, tokens: %2, target passes: %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>α&#x200d;&#x302; = %1 (accepted %2 of %3 tested)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tokens per round: %1 (theory E[N]: %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Speedup in target passes: %1×</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Speedup under the cost model (c = %1): %2×</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Wall-clock speedup: %1×</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No round committed yet.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export handout</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PDF (*.pdf)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export quiz sheet</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export trace…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export plot…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export handout (PDF)…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export quiz sheet (PDF)…</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>specdec::gui::Exporter</name>
    <message>
        <source>SVG export needs Qt SVG (package qt6-svg-dev), which this build lacks.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Unknown plot format &quot;%1&quot;: use .png, .pdf or .svg.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Could not write %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Could not write %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>specdec::gui::HelpBrowser</name>
    <message>
        <source>The user guide was not found (looked for %1).</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>specdec::gui::LessonLibrary</name>
    <message>
        <source>Lessons</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>specdec::gui::LessonPanel</name>
    <message>
        <source>Run this lesson</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Step %1 of %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>◀ Step</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Step ▶</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>specdec::gui::LosslessLabView</name>
    <message>
        <source>S = %1 samples · χ² = %2 on %3 degrees of freedom · p-value = %4 · TV(histogram, p) = %5</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>✗ The output does NOT follow p (p-value &lt; %1): this rule is biased.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>✓ Consistent with p: the histogram converges to the target&apos;s distribution, not the draft&apos;s.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>p — the target (head chef)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>q — the draft (apprentice)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Presets:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Random</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>From the models</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>One-hot</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Disjoint</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>p = q</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>p and q of the current round in the main window, over its most likely tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Alphabet size:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Acceptance rule:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Samples S:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stop</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>accepted draft</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>from the residual</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>p (target)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Where the S outputs came from</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>share of outputs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Predict the histogram first</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Hide the run&apos;s histogram until Reveal: let the room guess where the bars will land</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reveal the histogram</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Some candidate accepted: measured %1 ± %2 · exact 1 − Π(1 − Σ min(p_j, q)) = %3 (k = %4)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Candidates k:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>k drafts drawn i.i.d. from q and tested one by one (one step of a token tree); 1: the one-draft lab</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>accepted candidate %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>specdec::gui::MainWindow</name>
    <message>
        <source>%1&apos;s generation_config.json samples greedily: temperature 0 (the setup bar changes it).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1&apos;s generation_config.json samples at temperature %2, top-k %3, top-p %4: the setup now does (the setup bar changes it).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open corpus</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Text files (*.txt);;All files (*)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open ONNX model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ONNX models (*.onnx);;All files (*)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>About specdec-lab</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;specdec-lab&lt;/b&gt; runs speculative decoding for real and shows every step: the apprentice drafts, the head chef verifies in one pass, dice decide, the residual corrects. The output follows the target&apos;s distribution exactly.&lt;/p&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>specdec-lab — Speculative Decoding Lab</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open &amp;corpus…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open ONNX &amp;model…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>System language</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;About specdec-lab</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Timeline</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Distributions</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Theory</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Live plots</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The engine could not do that: %1. Change the setup to try again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Loading %1 — training the models … %2 %</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Use %1 as the target (head chef) or as the draft (apprentice)?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Target</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Draft</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Playing to round %1 of the session: %2 played…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> · stopped at the cap of %1 tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> · the target wrote its end-of-text token: the text ends here</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The prompt · target %1 · draft %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Round %1 · %2 · target %3 · draft %4</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No session: choose a corpus and models above.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Go to the last round played</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rounds 1 to %1 are no longer kept (the window keeps the newest %2 rounds; their numbers stay in the totals): Home shows round %3, the first one kept.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> · the first round kept (rounds 1 to %1 left the history)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Something went wrong inside the window: %1. The session and its position are kept; please report this.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The ONNX models know only the text they were trained on and do not learn from a corpus: %1 is played with n-gram models trained on it (target %2, draft %3). Choose an ONNX model again to go back to it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>At T = 0 the head chef takes its most likely token: top-k and top-p have no effect.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>At draft T = 0 a node&apos;s children are copies: each i.i.d. draw from a greedy q is its most likely token. Raise the temperature for different children.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The draft was trained on another text than the target, so their tokens differ: pick a draft made from the target&apos;s corpus.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose a tokenizer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Hugging Face tokenizers (tokenizer.json *.json);;All files (*)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Loading the tokenizer and training the models on the corpus cut into its pieces; the session plays on until they are ready.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open model &amp;folder…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open model folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Loading %1; the session plays on until it is ready.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Loading %1 … %2 %</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Loading %1 and its models … %2 %</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> · loading the next setup … %1 %</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> · loading %1 … %2 %</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The draft cuts text into other tokens than the target (%1); pick a draft whose tokenizer.json is the target&apos;s.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>specdec::gui::MessageBanner</name>
    <message>
        <source>Dismiss</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>specdec::gui::PlotsPanel</name>
    <message>
        <source>Acceptance rate α</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tokens per round</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Speedup</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Acceptance by draft position</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>this round</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>α&#x200d;&#x302; so far</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>mean β = Σ min(p, q)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>mean so far</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>theory E[N] at α&#x200d;&#x302;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>target passes saved</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>accelerator case (V = 1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>wall clock</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>accepted / tested</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>α&#x200d;&#x302;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>round</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>draft position</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>K this round (policy)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Three speedups, three reasons. Target passes saved: tokens per target pass (each pass commits a round). Accelerator case (V = 1): Theorem 3.8&apos;s prediction E[N] / (1 + K·c), a verification costing one step (the theory panel also predicts it with V(K+1) measured on this machine). Wall clock: baseline time / speculative time, measured.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>specdec::gui::PredictBeforeReveal</name>
    <message>
        <source>Predict before &amp;reveal</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>specdec::gui::QuizView</name>
    <message>
        <source>Question %1 of %2 · %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>choose all that apply</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>choose one</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Answer: %1. %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show me: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>◀ Previous</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reveal the answer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show me</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Next ▶</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>specdec::gui::RaceRunner</name>
    <message>
        <source>tree %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Loading the models…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Loading the models … %1 %</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Racing…</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>specdec::gui::RaceView</name>
    <message>
        <source>%1 tokens/s · %2 target calls</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n round(s)</source>
        <translation>
            <numerusform>%n round</numerusform>
            <numerusform>%n rounds</numerusform>
        </translation>
    </message>
    <message>
        <source>Stopped.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Both finished: the texts are identical, character for character (%n token(s)).</source>
        <translation>
            <numerusform>Both finished: the texts are identical, character for character (%n token).</numerusform>
            <numerusform>Both finished: the texts are identical, character for character (%n tokens).</numerusform>
        </translation>
    </message>
    <message>
        <source>Both finished: the texts differ from character %1 on (above temperature 0 each lane draws its own samples: the same distribution, not the same text).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Speculative decoding finished first: %1× the tokens per second of the target alone.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The target alone finished first: speculative decoding ran at %1× its tokens per second.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tokens:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Slow motion:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Both lanes are slowed by the same factor; 1× is the engine&apos;s own pace.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Start the race</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stop</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Target alone (autoregressive)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Speculative decoding</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Speculative decoding: draft %1, %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Target %1, KV cache %2. Both lanes continue the same prompt with the same seed and sampler; each lane&apos;s text appears at the pace its decoding took.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>on</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>off</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The race runs on the session&apos;s setup: its target, draft, prompt, seed and sampler.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>specdec::gui::RoundView</name>
    <message>
        <source>prompt</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>accepted from the apprentice (draft)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>corrected from the residual</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>bonus from the head chef (target)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No round yet</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Press Space to play, or → to step one phase.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Round %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 or %2</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>specdec::gui::SessionFiles</name>
    <message>
        <source>Save session</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sessions (*.specdec.json *.json)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open session</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Open session…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Save session…</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>specdec::gui::SetupBar</name>
    <message>
        <source>n-gram, order %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>uniform (knows nothing)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>same as the target</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Corpus</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Target</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Draft</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Prompt</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>K</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Temperature</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Draft T</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Top-k</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Top-p</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Seed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A built corpus or any UTF-8 text file (File ▸ Open corpus…, or drop a file).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The head chef: the model whose distribution the output follows exactly.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The apprentice: a cheap model that drafts K tokens per round.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>text to continue (empty: start from nothing)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Draft length K: tokens the apprentice writes per round.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Target temperature; 0 = greedy (equality checks instead of dice).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>same</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Draft temperature (&quot;same&quot;: the target&apos;s).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>off</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Keep only the k most probable tokens (applied to p and q).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nucleus sampling mass (1 = off; applied to p and q).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The same seed replays the same run.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tree shape: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Seed: a whole number from 0 to 18446744073709551615</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tree</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>chain</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>KV cache</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Token tree: children per depth, e.g. 3,2,1 (3 drafts, 2 under each, 1 under each of those: 15 nodes, verified in one pass). Empty: a chain of K.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>On: each ONNX model keeps its keys and values between calls, a draft step feeds one token, a verification K + 1, and a rejection rolls the cache back (what real engines do). Off: every call recomputes its whole window; the baseline is then the uncached decoder, about 20× slower than a real engine on 300 tokens of kjv (specdec bench --kv-cache-speedup), and the wall-clock speedup flatters speculation. n-gram models keep their context either way.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tokenizer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Characters</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Every token is one character (Unicode code point) of the corpus.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>tokenizer.json…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose a Hugging Face tokenizer.json file.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>How the text is cut into tokens, shared by target and draft: characters, or the subword pieces of a real LLM&apos;s tokenizer.json (an n-gram model is trained on the corpus cut that way).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Weights: %1 MB on disk (%2).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Parameters: %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>One step (one token): %1 ms, measured when the session loaded, where a %2-token run&apos;s calls are.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>specdec::gui::ShortcutList</name>
    <message>
        <source>Shortcut</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Action</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Menu</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>specdec::gui::ShowMe</name>
    <message>
        <source>Theory at α = %1, K = %2: E[N] = %3 tokens per round.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Measured run: %1 rounds, %2 tokens in %3 target passes, α&#x200d;&#x302; = %4, %5 tokens per round.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: α&#x200d;&#x302; = %2, %3 tokens per target pass, c = %4.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Token %1: p = %2 &lt; q = %3, so p/q = %4; accepted %5 times of ≈ %6 drafts = %7.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: α&#x200d;&#x302; = %2, %3 tokens per target pass, wall clock %4× (c = %5).</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>specdec::gui::TheoryExplorer</name>
    <message>
        <source>α (acceptance) = %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>K (draft length) = %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>c = T_draft / T_target = %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>E[N] = (1 − α^(K+1)) / (1 − α) = %1 tokens per round; speedup (1 − α^(K+1)) / ((1 − α)(Kc + 1)) = %2×; best K here: %3 (%4×).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>E[tokens per round] against K</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Speedup against K</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Speedup against α</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>K</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>α</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>E[N]</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cost-model speedup</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>sliders</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>best K</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>your runs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>E[N] = %1 tokens per round; a verification of K + 1 = %2 positions costs V = %3 steps, so S = E[N] / (V(K+1) + Kc) = %4× (Theorem 3.8, V = 1: %5×); best K: %6 (%7×), under Theorem 3.8: %8.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Theorem 3.8 (V = 1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Hardware</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Theorem 3.8: a verification costs one step (V = 1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>this machine (measured V and c; start a session first)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>this machine (measured V and c)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>memory-bound accelerator (V = 1 up to the ridge point)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What verifying K + 1 positions costs in target steps, V(K+1): S = E[N] / (V(K+1) + Kc).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> rows</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ridge point: the rows per call up to which a step is memory-bound (peak FLOP/s ÷ memory bandwidth, about 150 on a datacentre GPU in fp16); past it V grows with the rows.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>your runs, measured</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>your runs, predicted</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>specdec::gui::TheoryPanel</name>
    <message>
        <source>predicted: E[N] / (V(K+1) + K·c) = %1 — a round&apos;s cost in target steps: in this run a verification of %2 positions took V(%2) = %3 baseline steps and a draft call c = %4 of a step</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>predicted: E[N] / (V(K+1) + K·c) = %1 — a round&apos;s cost in target steps, with V(%2) = %3 (verifying %2 positions) and c = T&lt;sub&gt;draft&lt;/sub&gt;(1) / T&lt;sub&gt;target&lt;/sub&gt;(1) = %4 measured before the first round, where a %5-token run&apos;s calls are</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Acceptance</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Play a round to fill in the numbers.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>α = E[Σ min(p, q)] = 1 − E[TV]; mean β here: &lt;b&gt;%1&lt;/b&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tokens per round</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>measured: &lt;b&gt;%1&lt;/b&gt; tokens per round over %2 rounds</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>best K at this α and c: &lt;b&gt;%1&lt;/b&gt; (S = %2×)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reference</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>α = 0.8, K = 4 → E[N] = %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Token tree (SpecInfer)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>shape %1: %2 nodes drafted per round, all verified in &lt;b&gt;one&lt;/b&gt; target pass</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a node&apos;s k children are drawn i.i.d. from q and tested one by one against p′:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>last round, per tested depth: &lt;b&gt;%1&lt;/b&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>measured: &lt;b&gt;%1&lt;/b&gt; tokens per round (one target pass each) over %2 rounds</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a chain of the same depth at this α: E[N] = (1 − α&lt;sup&gt;%1&lt;/sup&gt;) / (1 − α) = &lt;b&gt;%2&lt;/b&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>nodes drafted per accepted token: &lt;b&gt;%1&lt;/b&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Thm 3.8 and its best K are for chains (one draft per depth); a tree pays more draft and verification work for each pass.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 passes more than rounds: past its context the target refills its window (one more pass each), so tokens per pass is below tokens per round</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Speedup: target passes, predicted, measured</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>best K with V and c measured here: &lt;b&gt;%1&lt;/b&gt; (S = %2×); in the accelerator case (V = 1): %3 (S = %4×)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>target passes: %1 tokens / %2 passes = &lt;b&gt;%3×&lt;/b&gt; — each pass of the target commits the round&apos;s accepted drafts and one token of its own</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>predicted (Thm 3.8, V = 1): S = E[N] / (1 + K·c) = %1 / (1 + %2 · %3) = &lt;b&gt;%4×&lt;/b&gt;, c = T&lt;sub&gt;draft&lt;/sub&gt; / T&lt;sub&gt;target&lt;/sub&gt; per call in this run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>accelerator case (V = 1, Thm 3.8): %1 / (1 + %2 · %3) = %4× — where verifying %5 positions costs one step, as on a memory-bound GPU</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>measured: baseline time / speculative time = %1 s / %2 s = &lt;b&gt;%3×&lt;/b&gt; (wall clock)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ms per call: draft %1 · verification %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ms per call: draft %1 · verification %2 · baseline step %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>tokens per second: speculative %1 · target alone %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Why slower: a round takes %1 ms (a verification of %2 positions, %3 ms = %4 baseline steps, and %5 draft calls, %6 ms) for %7 tokens, %8 ms per token; the target alone takes %9 ms per token. A pass is not free here.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>KV cache off: every call recomputes its window; the baseline is then the uncached decoder, about 20× slower than a real engine on 300 tokens of kjv, so the wall clock flatters speculation.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>specdec::gui::TimelineModel</name>
    <message>
        <source>Round %1: %2 of %3 drafts accepted, %4 tokens committed (“%5”). Click to replay it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Round %1: on screen now. Click to replay it from its first phase.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Round %1: older than the %2 rounds kept; its numbers are in the totals only.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>specdec::gui::ToolWindows</name>
    <message>
        <source>&amp;Presenter mode</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Leave presenter mode</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Larger text (presenter mode)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Smaller text (presenter mode)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>specdec::gui::TransportBar</name>
    <message>
        <source>Pause</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Play</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Previous phase</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Next phase</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Next round</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reset to the prompt</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Speed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>As fast as the engine runs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 ms per phase</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>specdec::gui::TreeView</name>
    <message>
        <source>The apprentice drafts a tree, one depth per call: every node gets its children drawn independently from q at that node.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The head chef scores every node of the tree in one forward pass (one row per root-to-leaf path); each node gets p(x).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Greedy: at each node the child equal to the target&apos;s most probable token is kept.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>From the top, children are tested one by one: keep x when u &lt; min(1, p′(x)/q(x)); after each rejection p′ becomes norm(max(0, p′ − q)).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No child matched: the target&apos;s most probable token is taken.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Every child of the node was rejected: the correction is drawn from the last p′.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A leaf was accepted: p after it gives one more token for free.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The accepted path and the correction or bonus join the text; the other branches are discarded.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>context</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>p&apos;%1 u%2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>q%1 p%2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>q%1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>from p&apos;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>bonus</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>specdec::gui::EngineHost</name>
    <message>
        <source>an unknown error</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>specdec::gui::GuardedApplication</name>
    <message>
        <source>an unknown error</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>TokenText</name>
    <message>
        <source>“%1”: token %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>in the tokenizer.json: “%1”</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A special token: it marks, it writes no text.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Bytes of a character split into several tokens: the character appears when its last byte comes.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Part of a character: its other bytes come in the next or the previous token.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>specdec::gui::TranscriptView</name>
    <message>
        <source>Bytes of a character not yet complete: it appears when its last byte comes.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
</TS>
