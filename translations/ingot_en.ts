<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en_US">
<context>
    <name>ingot::CacheChartsWidget</name>
    <message numerus="yes">
        <source>%1 in %n compiler version(s); the largest, %2, holds %3.</source>
        <translation>
            <numerusform>%1 in %n compiler version; the largest, %2, holds %3.</numerusform>
            <numerusform>%1 in %n compiler versions; the largest, %2, holds %3.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n entries; most of them (%1) were last used %2 ago.</source>
        <translation>
            <numerusform>%n entry (%1) was last used %2 ago.</numerusform>
            <numerusform>%n entries; most of them (%1) were last used %2 ago.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ingot::CachePolicy</name>
    <message numerus="yes">
        <source>the %n newest compiler(s)</source>
        <translation>
            <numerusform>the %n newest compiler</numerusform>
            <numerusform>the %n newest compilers</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>unused over %n day(s)</source>
        <translation>
            <numerusform>unused over %n day</numerusform>
            <numerusform>unused over %n days</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Compiler %1 is not one of the %n newest.</source>
        <translation>
            <numerusform>Compiler %1 is not among the %n newest.</numerusform>
            <numerusform>Compiler %1 is not one of the %n newest.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Unused for %n days.</source>
        <translation>
            <numerusform>Unused for %n day.</numerusform>
            <numerusform>Unused for %n days.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ingot::CacheSeed</name>
    <message numerus="yes">
        <source>%n graph(s): %1 there already, %2 copied</source>
        <translation>
            <numerusform>%n graph: %1 there already, %2 copied</numerusform>
            <numerusform>%n graphs: %1 there already, %2 copied</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ingot::CacheTreeModel</name>
    <message numerus="yes">
        <source>%n entries</source>
        <translation>
            <numerusform>%n entry</numerusform>
            <numerusform>%n entries</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n failed</source>
        <translation>
            <numerusform>%n failed</numerusform>
            <numerusform>%n failed</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n locked</source>
        <translation>
            <numerusform>%n locked</numerusform>
            <numerusform>%n locked</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n unknown</source>
        <translation>
            <numerusform>%n unknown</numerusform>
            <numerusform>%n unknown</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ingot::CompileLog</name>
    <message numerus="yes">
        <source>%n hit(s)</source>
        <translation>
            <numerusform>%n hit</numerusform>
            <numerusform>%n hits</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n new</source>
        <translation>
            <numerusform>%n new</numerusform>
            <numerusform>%n new</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n other flags</source>
        <translation>
            <numerusform>%n other flags</numerusform>
            <numerusform>%n other flags</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n other compiler</source>
        <translation>
            <numerusform>%n other compiler</numerusform>
            <numerusform>%n other compiler</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n in another cache</source>
        <translation>
            <numerusform>%n in another cache</numerusform>
            <numerusform>%n in another cache</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n blocked</source>
        <translation>
            <numerusform>%n blocked</numerusform>
            <numerusform>%n blocked</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n graph(s): %1</source>
        <translation>
            <numerusform>%n graph: %1</numerusform>
            <numerusform>%n graphs: %1</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ingot::Consolidate</name>
    <message numerus="yes">
        <source>GQA query: %n head(s) put back in order</source>
        <translation>
            <numerusform>GQA query: %n head put back in order</numerusform>
            <numerusform>GQA query: %n heads put back in order</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>GQA key: %n head(s), ×%1 replication dropped</source>
        <translation>
            <numerusform>GQA key: %n head, ×%1 replication dropped</numerusform>
            <numerusform>GQA key: %n heads, ×%1 replication dropped</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>GQA key: %n head(s)</source>
        <translation>
            <numerusform>GQA key: %n head</numerusform>
            <numerusform>GQA key: %n heads</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>GQA value: %n head(s), ×%1 replication dropped</source>
        <translation>
            <numerusform>GQA value: %n head, ×%1 replication dropped</numerusform>
            <numerusform>GQA value: %n heads, ×%1 replication dropped</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>GQA value: %n head(s)</source>
        <translation>
            <numerusform>GQA value: %n head</numerusform>
            <numerusform>GQA value: %n heads</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n data file(s)</source>
        <translation>
            <numerusform>%n data file</numerusform>
            <numerusform>%n data files</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>assembled from %n chunk(s)</source>
        <translation>
            <numerusform>assembled from %n chunk</numerusform>
            <numerusform>assembled from %n chunks</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1, rows reordered from TorchTitan&apos;s RoPE order (%n head(s))</source>
        <translation>
            <numerusform>%1, rows reordered from TorchTitan&apos;s RoPE order (%n head)</numerusform>
            <numerusform>%1, rows reordered from TorchTitan&apos;s RoPE order (%n heads)</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ingot::ConsolidateWizard</name>
    <message numerus="yes">
        <source>Found %n checkpoint(s). Layout: %1.</source>
        <translation>
            <numerusform>Found %n checkpoint. Layout: %1.</numerusform>
            <numerusform>Found %n checkpoints. Layout: %1.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Reading %n shard(s)…</source>
        <translation>
            <numerusform>Reading %n shard…</numerusform>
            <numerusform>Reading %n shards…</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n problem(s): nothing can be written until they are fixed</source>
        <translation>
            <numerusform>%n problem: nothing can be written until it is fixed</numerusform>
            <numerusform>%n problems: nothing can be written until they are fixed</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n output tensor(s), %1 to write, from %2.</source>
        <translation>
            <numerusform>%n output tensor, %1 to write, from %2.</numerusform>
            <numerusform>%n output tensors, %1 to write, from %2.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n shard(s)</source>
        <translation>
            <numerusform>%n shard</numerusform>
            <numerusform>%n shards</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>&lt;b&gt;%n tensor(s)&lt;/b&gt; (%1) written to &lt;tt&gt;%2&lt;/tt&gt; in %3:</source>
        <translation>
            <numerusform>&lt;b&gt;%n tensor&lt;/b&gt; (%1) written to &lt;tt&gt;%2&lt;/tt&gt; in %3:</numerusform>
            <numerusform>&lt;b&gt;%n tensors&lt;/b&gt; (%1) written to &lt;tt&gt;%2&lt;/tt&gt; in %3:</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Merged into the base model: %n tensor(s) (%1) in &lt;tt&gt;%2&lt;/tt&gt;.</source>
        <translation>
            <numerusform>Merged into the base model: %n tensor (%1) in &lt;tt&gt;%2&lt;/tt&gt;.</numerusform>
            <numerusform>Merged into the base model: %n tensors (%1) in &lt;tt&gt;%2&lt;/tt&gt;.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n tensor(s) and their optimizer state (step %1), split for tp=%2 pp=%3.</source>
        <translation>
            <numerusform>%n tensor and its optimizer state (step %1), split for tp=%2 pp=%3.</numerusform>
            <numerusform>%n tensors and their optimizer state (step %1), split for tp=%2 pp=%3.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n tensor(s), split for tp=%1 pp=%2.</source>
        <translation>
            <numerusform>%n tensor, split for tp=%1 pp=%2.</numerusform>
            <numerusform>%n tensors, split for tp=%1 pp=%2.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n LoRA adapter(s), each written as a folder PEFT loads (adapter_model.safetensors and its adapter_config.json): the default one in the output folder, the others in a folder of their name below it. </source>
        <translation>
            <numerusform>%n LoRA adapter, written as a folder PEFT loads (adapter_model.safetensors and its adapter_config.json) in the output folder. </numerusform>
            <numerusform>%n LoRA adapters, each written as a folder PEFT loads (adapter_model.safetensors and its adapter_config.json): the default one in the output folder, the others in a folder of their name below it. </numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n rank folder(s)</source>
        <translation>
            <numerusform>%n rank folder</numerusform>
            <numerusform>%n rank folders</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>&lt;b&gt;%n tensor(s)&lt;/b&gt; (%1) written to &lt;tt&gt;%2&lt;/tt&gt; for tp=%3 pp=%4, in %5.</source>
        <translation>
            <numerusform>&lt;b&gt;%n tensor&lt;/b&gt; (%1) written to &lt;tt&gt;%2&lt;/tt&gt; for tp=%3 pp=%4, in %5.</numerusform>
            <numerusform>&lt;b&gt;%n tensors&lt;/b&gt; (%1) written to &lt;tt&gt;%2&lt;/tt&gt; for tp=%3 pp=%4, in %5.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n tensor(s) of the optimizer (%1), named after the model&apos;s parameters, and its settings as JSON.</source>
        <translation>
            <numerusform>%n tensor of the optimizer (%1), named after the model&apos;s parameters, and its settings as JSON.</numerusform>
            <numerusform>%n tensors of the optimizer (%1), named after the model&apos;s parameters, and its settings as JSON.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>It also holds the optimizer state: %n tensor(s) (%1), written on request (next page).</source>
        <translation>
            <numerusform>It also holds the optimizer state: %n tensor (%1), written on request (next page).</numerusform>
            <numerusform>It also holds the optimizer state: %n tensors (%1), written on request (next page).</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ingot::FleetGc</name>
    <message numerus="yes">
        <source>no answer in %n seconds</source>
        <translation>
            <numerusform>no answer in %n second</numerusform>
            <numerusform>no answer in %n seconds</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ingot::FleetGcPanel</name>
    <message numerus="yes">
        <source>… and %n more</source>
        <translation>
            <numerusform>… and %n more</numerusform>
            <numerusform>… and %n more</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 in %n entries</source>
        <translation>
            <numerusform>%1 in %n entry</numerusform>
            <numerusform>%1 in %n entries</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n kept</source>
        <translation>
            <numerusform>%n kept</numerusform>
            <numerusform>%n kept</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Policy %1 frees %2 in %n entries</source>
        <translation>
            <numerusform>Policy %1 frees %2 in %n entry</numerusform>
            <numerusform>Policy %1 frees %2 in %n entries</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source> over %n place(s)</source>
        <translation>
            <numerusform> over %n place</numerusform>
            <numerusform> over %n places</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>; %n not reached</source>
        <translation>
            <numerusform>; %n not reached</numerusform>
            <numerusform>; %n not reached</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n removed</source>
        <translation>
            <numerusform>%n removed</numerusform>
            <numerusform>%n removed</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>, %n kept (changed since the preview)</source>
        <translation>
            <numerusform>, %n kept (changed since the preview)</numerusform>
            <numerusform>, %n kept (changed since the preview)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>, %n failed</source>
        <translation>
            <numerusform>, %n failed</numerusform>
            <numerusform>, %n failed</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ingot::FleetModel</name>
    <message numerus="yes">
        <source>%1 (+%n)</source>
        <translation>
            <numerusform>%1 (+%n)</numerusform>
            <numerusform>%1 (+%n)</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ingot::FleetPage</name>
    <message numerus="yes">
        <source>%n place(s)</source>
        <translation>
            <numerusform>%n place</numerusform>
            <numerusform>%n places</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source> · %1 in %n entries</source>
        <translation>
            <numerusform> · %1 in %n entry</numerusform>
            <numerusform> · %1 in %n entries</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source> · %n reading</source>
        <translation>
            <numerusform> · %n reading</numerusform>
            <numerusform> · %n reading</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source> · %n not read</source>
        <translation>
            <numerusform> · %n not read</numerusform>
            <numerusform> · %n not read</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ingot::GcLog</name>
    <message numerus="yes">
        <source>%n place(s)</source>
        <translation>
            <numerusform>%n place</numerusform>
            <numerusform>%n places</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>, %n unreachable</source>
        <translation>
            <numerusform>, %n unreachable</numerusform>
            <numerusform>, %n unreachable</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ingot::Hlo</name>
    <message numerus="yes">
        <source>Instructions:  %1 in %n computation(s) (%2 in the entry); most frequent: %3</source>
        <translation>
            <numerusform>Instructions:  %1 in %n computation (%2 in the entry); most frequent: %3</numerusform>
            <numerusform>Instructions:  %1 in %n computations (%2 in the entry); most frequent: %3</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n pair(s) %1</source>
        <translation>
            <numerusform>%n pair %1</numerusform>
            <numerusform>%n pairs %1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n group(s) of %1 %2</source>
        <translation>
            <numerusform>%n group of %1 %2</numerusform>
            <numerusform>%n groups of %1 %2</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ingot::HubCachePage</name>
    <message numerus="yes">
        <source>&amp;Pull %n to local cache</source>
        <translation>
            <numerusform>&amp;Pull %n to local cache</numerusform>
            <numerusform>&amp;Pull %n to local cache</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>P&amp;ush %n to this repo</source>
        <translation>
            <numerusform>P&amp;ush %n to this repo</numerusform>
            <numerusform>P&amp;ush %n to this repo</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1: %n item(s) listed</source>
        <translation>
            <numerusform>%1: %n item listed</numerusform>
            <numerusform>%1: %n items listed</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Listing %1 and %n more folder(s)…</source>
        <translation>
            <numerusform>Listing %1 and %n more folder…</numerusform>
            <numerusform>Listing %1 and %n more folders…</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n cached entr(ies) for %1 in %2 (%3 registry files read).</source>
        <translation>
            <numerusform>%n cached entry for %1 in %2 (%3 registry files read).</numerusform>
            <numerusform>%n cached entries for %1 in %2 (%3 registry files read).</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n entr(ies) of an unknown shape are listed too, raw.</source>
        <translation>
            <numerusform>%n entry of an unknown shape is listed too, raw.</numerusform>
            <numerusform>%n entries of an unknown shape are listed too, raw.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1
%2 in %n file(s)
%3</source>
        <translation>
            <numerusform>%1
%2 in %n file
%3</numerusform>
            <numerusform>%1
%2 in %n files
%3</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ingot::HubClient</name>
    <message numerus="yes">
        <source>The Hub is rate-limiting requests (%1); retried %n time(s). Wait a moment and try again.</source>
        <translation>
            <numerusform>The Hub is rate-limiting requests (%1); retried %n time. Wait a moment and try again.</numerusform>
            <numerusform>The Hub is rate-limiting requests (%1); retried %n times. Wait a moment and try again.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>The Hub failed to answer %1 (%2) after %n attempt(s).</source>
        <translation>
            <numerusform>The Hub failed to answer %1 (%2) after %n attempt.</numerusform>
            <numerusform>The Hub failed to answer %1 (%2) after %n attempts.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 Tried %n time(s).</source>
        <translation>
            <numerusform>%1 Tried %n time.</numerusform>
            <numerusform>%1 Tried %n times.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ingot::HubCommit</name>
    <message numerus="yes">
        <source>The Hub&apos;s upload plan left out %n file(s).</source>
        <translation>
            <numerusform>The Hub&apos;s upload plan left out %n file.</numerusform>
            <numerusform>The Hub&apos;s upload plan left out %n files.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ingot::JobLauncher</name>
    <message numerus="yes">
        <source> token(s)</source>
        <translation>
            <numerusform> token</numerusform>
            <numerusform> tokens</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source> step(s)</source>
        <translation>
            <numerusform> step</numerusform>
            <numerusform> steps</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source> checkpoint(s)</source>
        <translation>
            <numerusform> checkpoint</numerusform>
            <numerusform> checkpoints</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ingot::JobManager</name>
    <message numerus="yes">
        <source>Killed %n process(es) of job %1.</source>
        <translation>
            <numerusform>Killed %n process of job %1.</numerusform>
            <numerusform>Killed %n processes of job %1.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ingot::JobMonitor</name>
    <message numerus="yes">
        <source>Slurm %1 on %2, %n node(s)</source>
        <translation>
            <numerusform>Slurm %1 on %2, %n node</numerusform>
            <numerusform>Slurm %1 on %2, %n nodes</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Slurm %1 on %2, %3, %n node(s)</source>
        <translation>
            <numerusform>Slurm %1 on %2, %3, %n node</numerusform>
            <numerusform>Slurm %1 on %2, %3, %n nodes</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ingot::JobValidate</name>
    <message numerus="yes">
        <source>the checkpoint was saved by %n process(es), this job has %1</source>
        <translation>
            <numerusform>the checkpoint was saved by %n process, this job has %1</numerusform>
            <numerusform>the checkpoint was saved by %n processes, this job has %1</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ingot::LaunchForm</name>
    <message numerus="yes">
        <source>%n failed entry(s): the compiler reuses a failure instead of compiling that graph again, so a job that needs one fails at once.</source>
        <translation>
            <numerusform>%n failed entry: the compiler reuses a failure instead of compiling that graph again, so a job that needs it fails at once.</numerusform>
            <numerusform>%n failed entries: the compiler reuses a failure instead of compiling that graph again, so a job that needs one fails at once.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n locked entry(s) and no compiler running: stale locks from a killed compile; a job that needs one waits for the lock.</source>
        <translation>
            <numerusform>%n locked entry and no compiler running: a stale lock from a killed compile; a job that needs it waits for the lock.</numerusform>
            <numerusform>%n locked entries and no compiler running: stale locks from a killed compile; a job that needs one waits for the lock.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n entry(s) locked by a compile that is running now.</source>
        <translation>
            <numerusform>%n entry locked by a compile that is running now.</numerusform>
            <numerusform>%n entries locked by a compile that is running now.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n compiled entry(s), none failed or locked.</source>
        <translation>
            <numerusform>%n compiled entry, none failed or locked.</numerusform>
            <numerusform>%n compiled entries, none failed or locked.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ingot::LaunchSeed</name>
    <message numerus="yes">
        <source>Before training: the %n graph(s) of %1 the cache lacks are looked for in %2 and copied into %3.</source>
        <translation>
            <numerusform>Before training: the %n graph of %1 the cache lacks is looked for in %2 and copied into %3.</numerusform>
            <numerusform>Before training: the %n graphs of %1 the cache lacks are looked for in %2 and copied into %3.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ingot::LocalCachePage</name>
    <message numerus="yes">
        <source>Scanning… %n entries so far</source>
        <translation>
            <numerusform>Scanning… %n entry so far</numerusform>
            <numerusform>Scanning… %n entries so far</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Scan cancelled: %n entries read.</source>
        <translation>
            <numerusform>Scan cancelled: %n entry read.</numerusform>
            <numerusform>Scan cancelled: %n entries read.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n entries scanned in %1</source>
        <translation>
            <numerusform>%n entry scanned in %1</numerusform>
            <numerusform>%n entries scanned in %1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>⚠ %n warning(s) about this cache: unknown files, odd names, broken or outside links. &lt;a href=&apos;#&apos;&gt;Show them&lt;/a&gt;</source>
        <translation>
            <numerusform>⚠ %n warning about this cache: unknown files, odd names, broken or outside links. &lt;a href=&apos;#&apos;&gt;Show them&lt;/a&gt;</numerusform>
            <numerusform>⚠ %n warnings about this cache: unknown files, odd names, broken or outside links. &lt;a href=&apos;#&apos;&gt;Show them&lt;/a&gt;</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n warning(s) in %1. Ingot never deletes unknown items and never follows links.</source>
        <translation>
            <numerusform>%n warning in %1. Ingot never deletes unknown items and never follows links.</numerusform>
            <numerusform>%n warnings in %1. Ingot never deletes unknown items and never follows links.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Delete %n selected failed entries…</source>
        <translation>
            <numerusform>Delete %n selected failed entry…</numerusform>
            <numerusform>Delete %n selected failed entries…</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Push %n successful entries to the Hub cache repo…</source>
        <translation>
            <numerusform>Push %n successful entry to the Hub cache repo…</numerusform>
            <numerusform>Push %n successful entries to the Hub cache repo…</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Copy %n successful entries to a remote host…</source>
        <translation>
            <numerusform>Copy %n successful entry to a remote host…</numerusform>
            <numerusform>Copy %n successful entries to a remote host…</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Copy %n successful entries to this machine&apos;s cache</source>
        <translation>
            <numerusform>Copy %n successful entry to this machine&apos;s cache</numerusform>
            <numerusform>Copy %n successful entries to this machine&apos;s cache</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 (%n unchanged, not read again)</source>
        <translation>
            <numerusform>%1 (%n unchanged, not read again)</numerusform>
            <numerusform>%1 (%n unchanged, not read again)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1; looking for changes every %n s</source>
        <translation>
            <numerusform>%1; looking for changes every %n s</numerusform>
            <numerusform>%1; looking for changes every %n s</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ingot::Lookup</name>
    <message numerus="yes">
        <source>Incomplete: %n registry folder(s) or file(s) of %1 could not be read, so entries stored there are missing from the result:</source>
        <translation>
            <numerusform>Incomplete: %n registry folder or file of %1 could not be read, so entries stored there are missing from the result:</numerusform>
            <numerusform>Incomplete: %n registry folders or files of %1 could not be read, so entries stored there are missing from the result:</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>  and %n more.</source>
        <translation>
            <numerusform>  and %n more.</numerusform>
            <numerusform>  and %n more.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ingot::MainWindow</name>
    <message numerus="yes">
        <source>%n entries were already on their way and were left out.</source>
        <translation>
            <numerusform>%n entry was already on its way and was left out.</numerusform>
            <numerusform>%n entries were already on their way and were left out.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Upload %n successful entries from %1 to the Hub repo %2?

Only each entry&apos;s compiled files go (model.neff, model.done, the HLO module and its flags); failed, locked or unfinished entries, logs and locks never do. Entries already on the Hub are skipped.</source>
        <translation>
            <numerusform>Upload %n successful entry from %1 to the Hub repo %2?

Only each entry&apos;s compiled files go (model.neff, model.done, the HLO module and its flags); failed, locked or unfinished entries, logs and locks never do. Entries already on the Hub are skipped.</numerusform>
            <numerusform>Upload %n successful entries from %1 to the Hub repo %2?

Only each entry&apos;s compiled files go (model.neff, model.done, the HLO module and its flags); failed, locked or unfinished entries, logs and locks never do. Entries already on the Hub are skipped.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Copy %n entries to the compile cache of:</source>
        <translation>
            <numerusform>Copy %n entry to the compile cache of:</numerusform>
            <numerusform>Copy %n entries to the compile cache of:</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ingot::Maintenance</name>
    <message numerus="yes">
        <source>Unused for %n days (TTL %1 days).</source>
        <translation>
            <numerusform>Unused for %n day (TTL %1 days).</numerusform>
            <numerusform>Unused for %n days (TTL %1 days).</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Kept: the folder still holds %n entries.</source>
        <translation>
            <numerusform>Kept: the folder still holds %n entry.</numerusform>
            <numerusform>Kept: the folder still holds %n entries.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Removed %n lock files.</source>
        <translation>
            <numerusform>Removed %n lock file.</numerusform>
            <numerusform>Removed %n lock files.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ingot::MaintenanceDialog</name>
    <message numerus="yes">
        <source>&lt;b&gt;Dry run:&lt;/b&gt; lock files in %n entries would be removed. The entries themselves stay.</source>
        <translation>
            <numerusform>&lt;b&gt;Dry run:&lt;/b&gt; lock files in %n entry would be removed. The entries themselves stay.</numerusform>
            <numerusform>&lt;b&gt;Dry run:&lt;/b&gt; lock files in %n entries would be removed. The entries themselves stay.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>&lt;b&gt;Dry run:&lt;/b&gt; %n entries would be removed, freeing %1 (the cache goes from %2 to %3). Nothing has been changed yet.</source>
        <translation>
            <numerusform>&lt;b&gt;Dry run:&lt;/b&gt; %n entry would be removed, freeing %1 (the cache goes from %2 to %3). Nothing has been changed yet.</numerusform>
            <numerusform>&lt;b&gt;Dry run:&lt;/b&gt; %n entries would be removed, freeing %1 (the cache goes from %2 to %3). Nothing has been changed yet.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Remove locks in %n entries</source>
        <translation>
            <numerusform>Remove locks in %n entry</numerusform>
            <numerusform>Remove locks in %n entries</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Delete %n entries (%1)</source>
        <translation>
            <numerusform>Delete %n entry (%1)</numerusform>
            <numerusform>Delete %n entries (%1)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>&lt;b&gt;Dry run:&lt;/b&gt; %n entries would be removed, freeing %1 of the cache&apos;s %2. Nothing has been changed yet.</source>
        <translation>
            <numerusform>&lt;b&gt;Dry run:&lt;/b&gt; %n entry would be removed, freeing %1 of the cache&apos;s %2. Nothing has been changed yet.</numerusform>
            <numerusform>&lt;b&gt;Dry run:&lt;/b&gt; %n entries would be removed, freeing %1 of the cache&apos;s %2. Nothing has been changed yet.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ingot::MetricChart</name>
    <message numerus="yes">
        <source>%1: %2 → %3 over %Ln step(s), lowest %4, highest %5.</source>
        <translation>
            <numerusform>%1: %2 → %3 over %Ln step, lowest %4, highest %5.</numerusform>
            <numerusform>%1: %2 → %3 over %Ln steps, lowest %4, highest %5.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ingot::ModuleDetailsPane</name>
    <message numerus="yes">
        <source>%1 in %n file(s), last used %2</source>
        <translation>
            <numerusform>%1 in %n file, last used %2</numerusform>
            <numerusform>%1 in %n files, last used %2</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 in %n file(s), last used %2; %3 linked from elsewhere</source>
        <translation>
            <numerusform>%1 in %n file, last used %2; %3 linked from elsewhere</numerusform>
            <numerusform>%1 in %n files, last used %2; %3 linked from elsewhere</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ingot::NeuronCoresView</name>
    <message numerus="yes">
        <source>%n Neuron device(s), %1 NeuronCores</source>
        <translation>
            <numerusform>%n Neuron device, %1 NeuronCores</numerusform>
            <numerusform>%n Neuron devices, %1 NeuronCores</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n core(s) in use, %1 % on average</source>
        <translation>
            <numerusform>%n core in use, %1 % on average</numerusform>
            <numerusform>%n cores in use, %1 % on average</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ingot::Precompile</name>
    <message numerus="yes">
        <source>%n graph(s) found: %1 done, %2 compiling, %3 failed, %4 remaining</source>
        <translation>
            <numerusform>%n graph found: %1 done, %2 compiling, %3 failed, %4 remaining</numerusform>
            <numerusform>%n graphs found: %1 done, %2 compiling, %3 failed, %4 remaining</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ingot::PriorGraphs</name>
    <message numerus="yes">
        <source>The last run with these settings (%1) used %n graph(s): %2 compiled in %3 now, %4 to compile again.</source>
        <translation>
            <numerusform>The last run with these settings (%1) used %n graph: %2 compiled in %3 now, %4 to compile again.</numerusform>
            <numerusform>The last run with these settings (%1) used %n graphs: %2 compiled in %3 now, %4 to compile again.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n blocked (FAILED or LOCKED): %1</source>
        <translation>
            <numerusform>%n blocked (FAILED or LOCKED): %1</numerusform>
            <numerusform>%n blocked (FAILED or LOCKED): %1</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ingot::RemoteHostSession</name>
    <message numerus="yes">
        <source>The connection to %1 was lost; retrying in %n s.</source>
        <translation>
            <numerusform>The connection to %1 was lost; retrying in %n s.</numerusform>
            <numerusform>The connection to %1 was lost; retrying in %n s.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ingot::RemoteHostsModel</name>
    <message numerus="yes">
        <source>connection lost, retrying in %n s</source>
        <translation>
            <numerusform>connection lost, retrying in %n s</numerusform>
            <numerusform>connection lost, retrying in %n s</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ingot::RunCompare</name>
    <message numerus="yes">
        <source>%n other flags</source>
        <translation>
            <numerusform>%n other flags</numerusform>
            <numerusform>%n other flags</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n other compiler</source>
        <translation>
            <numerusform>%n other compiler</numerusform>
            <numerusform>%n other compiler</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n new</source>
        <translation>
            <numerusform>%n new</numerusform>
            <numerusform>%n new</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n in another cache</source>
        <translation>
            <numerusform>%n in another cache</numerusform>
            <numerusform>%n in another cache</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n blocked</source>
        <translation>
            <numerusform>%n blocked</numerusform>
            <numerusform>%n blocked</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 compiled %n graph(s) %2 had: %3</source>
        <translation>
            <numerusform>%1 compiled %n graph %2 had: %3</numerusform>
            <numerusform>%1 compiled %n graphs %2 had: %3</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n graph(s) only %1 has.</source>
        <translation>
            <numerusform>%n graph only %1 has.</numerusform>
            <numerusform>%n graphs only %1 has.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n found compiled.</source>
        <translation>
            <numerusform>%n found compiled.</numerusform>
            <numerusform>%n found compiled.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ingot::RunComparisonDialog</name>
    <message numerus="yes">
        <source>Reading %n run(s)…</source>
        <translation>
            <numerusform>Reading %n run…</numerusform>
            <numerusform>Reading %n runs…</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ingot::RunImport</name>
    <message numerus="yes">
        <source>%1: %n log_history entries without a step were skipped.</source>
        <translation>
            <numerusform>%1: %n log_history entry without a step was skipped.</numerusform>
            <numerusform>%1: %n log_history entries without a step were skipped.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1: %n over-long line(s) skipped.</source>
        <translation>
            <numerusform>%1: %n over-long line skipped.</numerusform>
            <numerusform>%1: %n over-long lines skipped.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1: %n record(s) with a wrong CRC or not an event were skipped.</source>
        <translation>
            <numerusform>%1: %n record with a wrong CRC or not an event was skipped.</numerusform>
            <numerusform>%1: %n records with a wrong CRC or not an event were skipped.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1: %n record(s) over %2 bytes were skipped.</source>
        <translation>
            <numerusform>%1: %n record over %2 bytes was skipped.</numerusform>
            <numerusform>%1: %n records over %2 bytes were skipped.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ingot::SlurmCluster</name>
    <message numerus="yes">
        <source>%n CPU(s)</source>
        <translation>
            <numerusform>%n CPU</numerusform>
            <numerusform>%n CPUs</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1: %n node(s) (%2 idle, %3 mixed, %4 allocated, %5 drained, %6 down), %7, limit %8</source>
        <translation>
            <numerusform>%1: %n node (%2 idle, %3 mixed, %4 allocated, %5 drained, %6 down), %7, limit %8</numerusform>
            <numerusform>%1: %n nodes (%2 idle, %3 mixed, %4 allocated, %5 drained, %6 down), %7, limit %8</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n CPU(s), %1</source>
        <translation>
            <numerusform>%n CPU, %1</numerusform>
            <numerusform>%n CPUs, %1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Your queue: %n job(s).</source>
        <translation>
            <numerusform>Your queue: %n job.</numerusform>
            <numerusform>Your queue: %n jobs.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ingot::SlurmQueueSection</name>
    <message numerus="yes">
        <source>No other jobs in your queue on %n cluster(s).</source>
        <translation>
            <numerusform>No other jobs in your queue on %n cluster.</numerusform>
            <numerusform>No other jobs in your queue on %n clusters.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n other job(s) in your queue.</source>
        <translation>
            <numerusform>%n other job in your queue.</numerusform>
            <numerusform>%n other jobs in your queue.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ingot::SlurmSection</name>
    <message numerus="yes">
        <source>%1 (%2 of %n node(s) idle, limit %3)%4</source>
        <translation>
            <numerusform>%1 (%2 of %n node idle, limit %3)%4</numerusform>
            <numerusform>%1 (%2 of %n nodes idle, limit %3)%4</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n job(s)</source>
        <translation>
            <numerusform>%n job</numerusform>
            <numerusform>%n jobs</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Slurm %1, cluster %2: %n partition(s), your queue holds %3.</source>
        <translation>
            <numerusform>Slurm %1, cluster %2: %n partition, your queue holds %3.</numerusform>
            <numerusform>Slurm %1, cluster %2: %n partitions, your queue holds %3.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ingot::TorchNeuron</name>
    <message numerus="yes">
        <source>complete, unused for more than %n days</source>
        <translation>
            <numerusform>complete, unused for more than %n day</numerusform>
            <numerusform>complete, unused for more than %n days</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ingot::TorchNeuronDialog</name>
    <message numerus="yes">
        <source>%n entries, %1: %2 complete, %3 compiling, %4 with a stale lock, %5 incomplete.</source>
        <translation>
            <numerusform>%n entry, %1: %2 complete, %3 compiling, %4 with a stale lock, %5 incomplete.</numerusform>
            <numerusform>%n entries, %1: %2 complete, %3 compiling, %4 with a stale lock, %5 incomplete.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n other items left alone.</source>
        <translation>
            <numerusform>%n other item left alone.</numerusform>
            <numerusform>%n other items left alone.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Remove these %n items?</source>
        <translation>
            <numerusform>Remove this item?</numerusform>
            <numerusform>Remove these %n items?</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ingot::TransfersModel</name>
    <message numerus="yes">
        <source>%n s</source>
        <translation>
            <numerusform>%n s</numerusform>
            <numerusform>%n s</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Pull %n entries from %1 to %2</source>
        <translation>
            <numerusform>Pull %n entry from %1 to %2</numerusform>
            <numerusform>Pull %n entries from %1 to %2</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Push %n entries from %1 to %2</source>
        <translation>
            <numerusform>Push %n entry from %1 to %2</numerusform>
            <numerusform>Push %n entries from %1 to %2</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Copy %n entries from %1 to %2</source>
        <translation>
            <numerusform>Copy %n entry from %1 to %2</numerusform>
            <numerusform>Copy %n entries from %1 to %2</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n failed</source>
        <translation>
            <numerusform>%n failed</numerusform>
            <numerusform>%n failed</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 of about %2 · %3/%n entries</source>
        <translation>
            <numerusform>%1 of about %2 · %3/%n entry</numerusform>
            <numerusform>%1 of about %2 · %3/%n entries</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 of %2 · %3/%n entries</source>
        <translation>
            <numerusform>%1 of %2 · %3/%n entry</numerusform>
            <numerusform>%1 of %2 · %3/%n entries</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1/%n entries</source>
        <translation>
            <numerusform>%1/%n entry</numerusform>
            <numerusform>%1/%n entries</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ingot::TransfersPage</name>
    <message numerus="yes">
        <source>%n transfers running, %1/s</source>
        <translation>
            <numerusform>%n transfer running, %1/s</numerusform>
            <numerusform>%n transfers running, %1/s</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ingot::VersionPickerDialog</name>
    <message numerus="yes">
        <source>%1 — %n entries, %2</source>
        <translation>
            <numerusform>%1 — %n entry, %2</numerusform>
            <numerusform>%1 — %n entries, %2</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ingot::cli</name>
    <message numerus="yes">
        <source>%n warning(s); run `ingot-cli cache status` to see them.</source>
        <translation>
            <numerusform>%n warning; run `ingot-cli cache status` to see it.</numerusform>
            <numerusform>%n warnings; run `ingot-cli cache status` to see them.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>neuronx-cc is running (%n process(es)): its locks are live.</source>
        <translation>
            <numerusform>neuronx-cc is running (%n process): its locks are live.</numerusform>
            <numerusform>neuronx-cc is running (%n processes): its locks are live.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n registry entr(ies) of an unknown shape.</source>
        <translation>
            <numerusform>%n registry entry of an unknown shape.</numerusform>
            <numerusform>%n registry entries of an unknown shape.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n registry entr(ies) of an unknown shape (--raw shows them).</source>
        <translation>
            <numerusform>%n registry entry of an unknown shape (--raw shows them).</numerusform>
            <numerusform>%n registry entries of an unknown shape (--raw shows them).</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n file(s)</source>
        <translation>
            <numerusform>%n file</numerusform>
            <numerusform>%n files</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Would push %n entries (%1, %2) to %3 (dry run: nothing was sent).</source>
        <translation>
            <numerusform>Would push %n entry (%1, %2) to %3 (dry run: nothing was sent).</numerusform>
            <numerusform>Would push %n entries (%1, %2) to %3 (dry run: nothing was sent).</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>State:         %1, %2 in %n file(s)</source>
        <translation>
            <numerusform>State:         %1, %2 in %n file</numerusform>
            <numerusform>State:         %1, %2 in %n files</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Also:       %n TorchNeuron / vLLM-Neuron cache keys (another format): ingot-cli torchneuron list --cache-dir %1</source>
        <translation>
            <numerusform>Also:       %n TorchNeuron / vLLM-Neuron cache key (another format): ingot-cli torchneuron list --cache-dir %1</numerusform>
            <numerusform>Also:       %n TorchNeuron / vLLM-Neuron cache keys (another format): ingot-cli torchneuron list --cache-dir %1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Remove %n items (%1)?</source>
        <translation>
            <numerusform>Remove %n item (%1)?</numerusform>
            <numerusform>Remove %n items (%1)?</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1: %n entries, %2 freed (cache %3 -&gt; %4).</source>
        <translation>
            <numerusform>%1: %n entry, %2 freed (cache %3 -&gt; %4).</numerusform>
            <numerusform>%1: %n entries, %2 freed (cache %3 -&gt; %4).</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Remove %n entries (%1)?</source>
        <translation>
            <numerusform>Remove %n entry (%1)?</numerusform>
            <numerusform>Remove %n entries (%1)?</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Wrote %n entries (%1, %2 apparent size) to %3</source>
        <translation>
            <numerusform>Wrote %n entry (%1, %2 apparent size) to %3</numerusform>
            <numerusform>Wrote %n entries (%1, %2 apparent size) to %3</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Layout:     %1 (dp×tp×pp), %n process(es)</source>
        <translation>
            <numerusform>Layout:     %1 (dp×tp×pp), %n process</numerusform>
            <numerusform>Layout:     %1 (dp×tp×pp), %n processes</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Pushed %1 of %n entries to %2; %3 skipped, %4 failed.</source>
        <translation>
            <numerusform>Pushed %1 of %n entry to %2; %3 skipped, %4 failed.</numerusform>
            <numerusform>Pushed %1 of %n entries to %2; %3 skipped, %4 failed.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>[%1/%n entries] %2 of %3, %4/s, ETA %5 s</source>
        <translation>
            <numerusform>[%1/%n entry] %2 of %3, %4/s, ETA %5 s</numerusform>
            <numerusform>[%1/%n entries] %2 of %3, %4/s, ETA %5 s</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Unused for more than %n days: </source>
        <translation>
            <numerusform>Unused for more than %n day: </numerusform>
            <numerusform>Unused for more than %n days: </numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Not read:   %n folders (too deep, or past the entries Ingot reads)</source>
        <translation>
            <numerusform>Not read:   %n folder (too deep, or past the entries Ingot reads)</numerusform>
            <numerusform>Not read:   %n folders (too deep, or past the entries Ingot reads)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Remove %n NEFF files (%1)?</source>
        <translation>
            <numerusform>Remove %n NEFF file (%1)?</numerusform>
            <numerusform>Remove %n NEFF files (%1)?</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>With the optimizer state: %n tensor(s) (%1) to optimizer.safetensors</source>
        <translation>
            <numerusform>With the optimizer state: %n tensor (%1) to optimizer.safetensors</numerusform>
            <numerusform>With the optimizer state: %n tensors (%1) to optimizer.safetensors</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>, %n value(s) to optimizer_param_groups.json</source>
        <translation>
            <numerusform>, %n value to optimizer_param_groups.json</numerusform>
            <numerusform>, %n values to optimizer_param_groups.json</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n entries checked against %1</source>
        <translation>
            <numerusform>%n entry checked against %1</numerusform>
            <numerusform>%n entries checked against %1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>: %n differ or are missing.</source>
        <translation>
            <numerusform>: %n differs or is missing.</numerusform>
            <numerusform>: %n differ or are missing.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n place(s) could not be read (see STATUS).</source>
        <translation>
            <numerusform>%n place could not be read (see STATUS).</numerusform>
            <numerusform>%n places could not be read (see STATUS).</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Remove %n entries (%1) in these places?</source>
        <translation>
            <numerusform>Remove %n entry (%1) in these places?</numerusform>
            <numerusform>Remove %n entries (%1) in these places?</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Total: %n entries, %1; %2 not reached.</source>
        <translation>
            <numerusform>Total: %n entry, %1; %2 not reached.</numerusform>
            <numerusform>Total: %n entries, %1; %2 not reached.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 freed over %n place(s)</source>
        <translation>
            <numerusform>%1 freed over %n place</numerusform>
            <numerusform>%1 freed over %n places</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ingot::cli::SeedLaunch</name>
    <message numerus="yes">
        <source>note: --seed-cache: the %n graph(s) of %1 are brought on each node before the training, into its own %2 (ingot-cli cache seed, through srun)</source>
        <translation>
            <numerusform>note: --seed-cache: the %n graph of %1 is brought on each node before the training, into its own %2 (ingot-cli cache seed, through srun)</numerusform>
            <numerusform>note: --seed-cache: the %n graphs of %1 are brought on each node before the training, into its own %2 (ingot-cli cache seed, through srun)</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ingot::units</name>
    <message numerus="yes">
        <source>%n min ago</source>
        <translation>
            <numerusform>%n min ago</numerusform>
            <numerusform>%n min ago</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n h ago</source>
        <translation>
            <numerusform>%n h ago</numerusform>
            <numerusform>%n h ago</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n days ago</source>
        <translation>
            <numerusform>%n day ago</numerusform>
            <numerusform>%n days ago</numerusform>
        </translation>
    </message>
</context>
</TS>
