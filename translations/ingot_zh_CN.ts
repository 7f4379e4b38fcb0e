<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>ingot::CacheChartsWidget</name>
    <message>
        <source>Size by compiler version</source>
        <translation>按编译器版本的大小</translation>
    </message>
    <message>
        <source>Entries by last use</source>
        <translation>按上次使用的条目</translation>
    </message>
    <message>
        <source>GB</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>MB</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>entries</source>
        <translation>条目</translation>
    </message>
</context>
<context>
    <name>ingot::CacheLocation</name>
    <message>
        <source>NEURON_CC_FLAGS contains --cache_dir=%1, which takes precedence over NEURON_COMPILE_CACHE_URL and the default.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>NEURON_COMPILE_CACHE_URL is set to %1 (NEURON_CC_FLAGS has no --cache_dir).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Neither --cache_dir in NEURON_CC_FLAGS nor NEURON_COMPILE_CACHE_URL is set, so the Neuron default %1 is used.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Note: --no_cache in NEURON_CC_FLAGS disables the compile cache for jobs started with these flags.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>S3 caches are not supported yet: %1 is an S3 location. Ingot can show local caches only; add a local cache folder instead.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ingot::CacheModule</name>
    <message>
        <source>A *.lock file is present: a compile is running, or a killed one left a stale lock.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>model.neff is present but model.done is missing: the compile was interrupted.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compiled: model.neff is present.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>model.log without model.neff: the compile failed. The compiler will not retry until this entry is deleted (or --retry_failed_compilation is passed).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The folder is empty.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No model.neff, no model.log and no lock: the compile never finished.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ingot::CacheScanner</name>
    <message>
        <source>%1 vanished during the scan.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the cache root</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A broken symbolic link in %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A symbolic link in %1 pointing outside the cache root; not followed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A symbolic link in %1; not followed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Left over from an interrupted removal by Ingot; safe to delete by hand.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A folder the Neuron compiler does not write in %1; not scanned.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A file the Neuron compiler does not write in %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Unusual module name: the compiler writes MODULE_&lt;hash&gt;+&lt;flags hash&gt;.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Unexpected sub-folder &quot;%1&quot;; its contents are not scanned.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&quot;%1&quot; is a broken symbolic link.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&quot;%1&quot; links outside the cache root; the link is never followed when deleting.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a regular file (a pipe, socket or device), or could not be read.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ingot::CacheStats</name>
    <message>
        <source>0-1 d</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>1-7 d</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>7-30 d</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>30-90 d</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>90+ d</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ingot::CacheTreeModel</name>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>大小</translation>
    </message>
    <message>
        <source>Last used</source>
        <translation>上次使用</translation>
    </message>
    <message>
        <source>Files</source>
        <translation>文件</translation>
    </message>
    <message>
        <source>Other items in the cache root</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n entries</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n failed</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n locked</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n unknown</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>Files and folders at the top of the cache that are not compiler-version folders</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compiler version %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ingot::EmptyStateWidget</name>
    <message>
        <source>Add cache folder…</source>
        <translation>添加缓存文件夹…</translation>
    </message>
    <message>
        <source>Open sample cache</source>
        <translation>打开示例缓存</translation>
    </message>
    <message>
        <source>Look again</source>
        <translation>重新查找</translation>
    </message>
    <message>
        <source>Writes a small, realistic compile cache (sparse files, a few kB on disk) so you can try every feature: states, failures, locks, charts and maintenance.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ingot::LocalCachePage</name>
    <message>
        <source>Scanning %1…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Checking for changes…</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Scanning… %n entries so far</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>&amp;Rescan</source>
        <translation>重新扫描(&amp;R)</translation>
    </message>
    <message>
        <source>Look for changes (F5); unchanged entries are not read again</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rescan &amp;everything</source>
        <translation>全部重新扫描(&amp;E)</translation>
    </message>
    <message>
        <source>&amp;Add cache folder…</source>
        <translation>添加缓存文件夹(&amp;A)…</translation>
    </message>
    <message>
        <source>Open &amp;sample cache</source>
        <translation>打开示例缓存(&amp;S)</translation>
    </message>
    <message>
        <source>Delete &amp;failed entries…</source>
        <translation>删除失败条目(&amp;F)…</translation>
    </message>
    <message>
        <source>Preview, then delete every FAILED entry so the next run compiles it again</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Clear stale &amp;locks…</source>
        <translation>清除过期锁(&amp;L)…</translation>
    </message>
    <message>
        <source>Preview, then remove *.lock files; refused while neuronx-cc runs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove other compiler &amp;versions…</source>
        <translation>删除其他编译器版本(&amp;V)…</translation>
    </message>
    <message>
        <source>&amp;Prune…</source>
        <translation>清理(&amp;P)…</translation>
    </message>
    <message>
        <source>Preview, then remove entries unused longer than the TTL and least recently used ones while the cache is over its size limit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete selected failed entries…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cache:</source>
        <translation>缓存：</translation>
    </message>
    <message>
        <source>Filter by entry or compiler version (Ctrl+F)</source>
        <translation>按条目或编译器版本筛选 (Ctrl+F)</translation>
    </message>
    <message>
        <source>All states</source>
        <translation>所有状态</translation>
    </message>
    <message>
        <source>Problems only</source>
        <translation>仅问题</translation>
    </message>
    <message>
        <source>%1 (Neuron default for this environment)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Why this folder: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A sample cache Ingot generated, safe to experiment with. The Neuron default here: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A folder you added. The Neuron runtime here would use %1 (%2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>S3 caches are not supported yet</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add a Neuron compile cache folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sample cache</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Could not write the sample cache: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No Neuron compile cache here yet</source>
        <translation>这里还没有 Neuron 编译缓存</translation>
    </message>
    <message>
        <source>This cache cannot be shown</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ingot looks where the Neuron runtime does. %1

Training or compiling on this machine creates the cache. Meanwhile you can add another folder, or open a sample cache to see every feature at work.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose another folder, or open the sample cache.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The cache is empty</source>
        <translation>缓存为空</translation>
    </message>
    <message>
        <source>%1 exists but holds no compiled entries yet. It fills as jobs compile; Ingot follows it live.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Scan cancelled: %n entries read.</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n entries scanned in %1</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source> (%n unchanged, not read again)</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>; following changes on disk</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Total size</source>
        <translation>总大小</translation>
    </message>
    <message>
        <source>Entries</source>
        <translation>条目</translation>
    </message>
    <message>
        <source>Unknown items</source>
        <translation>未知项</translation>
    </message>
    <message>
        <source>Linked (HF hub cache)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>On disk (sparse)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compiler versions</source>
        <translation>编译器版本</translation>
    </message>
    <message numerus="yes">
        <source>⚠ %n warning(s) about this cache: unknown files, odd names, broken or outside links. &lt;a href=&apos;#&apos;&gt;Show them&lt;/a&gt;</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>Warnings</source>
        <translation>警告</translation>
    </message>
    <message numerus="yes">
        <source>%n warning(s) in %1. Ingot never deletes unknown items and never follows links.</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>Copy path</source>
        <translation>复制路径</translation>
    </message>
    <message>
        <source>Copy name</source>
        <translation>复制名称</translation>
    </message>
    <message>
        <source>Open folder</source>
        <translation>打开文件夹</translation>
    </message>
    <message numerus="yes">
        <source>Delete %n selected failed entries…</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ingot::LocalCacheStore</name>
    <message>
        <source>The cache folder %1 does not exist.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot open the cache folder %1: %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is not a folder, so it cannot be a compile cache.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot read %1: %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Refused to read %1: the path leaves the cache root.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is not a regular file.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Refused to remove &quot;%1&quot;: the path is outside the cache root.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot remove %1: %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Could not fully remove %1: %2. What remains was left in place.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Could not fully remove %1: %2. What remains is in %3.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot tell whether neuronx-cc is running: /proc is not available.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>permission denied</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no longer exists</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>is not a folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>is a symbolic link (links are never followed)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the disk is full</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the file system is read-only</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>is in use</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>is not empty</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>input/output error</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ingot::MainWindow</name>
    <message>
        <source>Ingot</source>
        <translation>Ingot</translation>
    </message>
    <message>
        <source>Local cache</source>
        <translation>本地缓存</translation>
    </message>
    <message>
        <source>The Neuron compile cache on this machine (Ctrl+1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancel the scan (Esc)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 — Ingot</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Cancel scan</source>
        <translation>取消扫描(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;Settings…</source>
        <translation>设置(&amp;S)…</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;Cache</source>
        <translation>缓存(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;Go</source>
        <translation>转到(&amp;G)</translation>
    </message>
    <message>
        <source>&amp;Local cache</source>
        <translation>本地缓存(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;About Ingot</source>
        <translation>关于 Ingot(&amp;A)</translation>
    </message>
    <message>
        <source>About &amp;Qt</source>
        <translation>关于 &amp;Qt</translation>
    </message>
    <message>
        <source>About Ingot</source>
        <translation>关于 Ingot</translation>
    </message>
    <message>
        <source>&lt;h3&gt;Ingot %1&lt;/h3&gt;&lt;p&gt;Compile caches, Hub caches, training jobs and checkpoints for AWS Trainium with optimum-neuron and torch-neuronx.&lt;/p&gt;&lt;p&gt;Ingot shows what the opaque Neuron compile cache holds, which entries failed, which locks are stale and what can go, and maintains it safely: every action is previewed first.&lt;/p&gt;&lt;p&gt;Built with Qt %2. Settings: &lt;tt&gt;%3&lt;/tt&gt;&lt;/p&gt;</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ingot::Maintenance</name>
    <message>
        <source>LOCKED: a compile may be running on it; locked entries are never removed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete failed entries</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Clear stale locks</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove other compiler versions</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Prune by age and size</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>FAILED: removing it lets the next run compile this graph again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not a failed entry (%1).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Lock files: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>neuronx-cc is running (process %1), so these locks may belong to a live compile. Wait for it to finish, then clear the locks.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not written by the compiler; Ingot leaves it for you to remove by hand.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compiler version %1 is not kept.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The version folder, once it is empty.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Unused for %n days (TTL %1 days).</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>Least recently used while the cache is over %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The cache stays over the %1 limit (%2 after pruning): the remaining entries were used within the last %3 days and are kept.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The cache stays over the %1 limit (%2 after pruning): only locked entries and unknown files remain.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>neuronx-cc started running since the preview; nothing was changed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Kept: the folder still holds %n entries.</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>Removed the empty folder.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The entry vanished since the preview.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No lock left: the compile finished since the preview.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Removed %n lock files.</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>Skipped: the entry is locked now (a compile started).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Skipped: the entry is %1 now, no longer FAILED.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Skipped: the entry was used since the preview.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Removed.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ingot::MaintenanceDialog</name>
    <message>
        <source> — preview</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;Nothing to do.&lt;/b&gt; No entry matches this action.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>&lt;b&gt;Dry run:&lt;/b&gt; lock files in %n entries would be removed. The entries themselves stay.</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>&lt;b&gt;Dry run:&lt;/b&gt; %n entries would be removed, freeing %1 (the cache goes from %2 to %3). Nothing has been changed yet.</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>Refused: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Entry</source>
        <translation>条目</translation>
    </message>
    <message>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>大小</translation>
    </message>
    <message>
        <source>Last used</source>
        <translation>上次使用</translation>
    </message>
    <message>
        <source>Why</source>
        <translation>原因</translation>
    </message>
    <message>
        <source>Kept</source>
        <translation>保留</translation>
    </message>
    <message numerus="yes">
        <source>Remove locks in %n entries</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Delete %n entries (%1)</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>删除</translation>
    </message>
    <message>
        <source>These stay:</source>
        <translation>以下条目将保留：</translation>
    </message>
    <message>
        <source>Removing %1 (%2 of %3)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stopping after the current entry…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>Nothing was changed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 removed, %2 skipped, %3 failed; %4 freed on disk.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stopped before the end: the remaining entries were not touched.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;Finished with problems.&lt;/b&gt; Each failed entry says why below.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;Finished.&lt;/b&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Result</source>
        <translation>结果</translation>
    </message>
    <message>
        <source>Not reached</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ingot::ModuleDetailsPane</name>
    <message>
        <source>(no flags: the compiler defaults)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(compile_flags.json is not a JSON list; raw text follows)
</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy path</source>
        <translation>复制路径</translation>
    </message>
    <message>
        <source>Open folder</source>
        <translation>打开文件夹</translation>
    </message>
    <message>
        <source>Compile flags</source>
        <translation>编译选项</translation>
    </message>
    <message>
        <source>Failure log (model.log, last lines)</source>
        <translation>失败日志（model.log 最后几行）</translation>
    </message>
    <message>
        <source>Copy the full path (Ctrl+Shift+C)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Select an entry to see its files, flags and log.</source>
        <translation>选择一个条目以查看其文件、编译选项和日志。</translation>
    </message>
    <message numerus="yes">
        <source>%1 in %n file(s), last used %2</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>; %1 linked from elsewhere</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compile flags (%1)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ingot::ModuleFilesModel</name>
    <message>
        <source>broken link</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>link into the Hugging Face hub cache (not counted)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>link outside the cache root (not counted, never followed)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>link inside the cache (not counted twice)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>sub-folder, not scanned</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not a regular file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not written by the compiler</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>sparse: %1 on disk</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>File</source>
        <translation>文件</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>大小</translation>
    </message>
    <message>
        <source>Modified</source>
        <translation>修改时间</translation>
    </message>
    <message>
        <source>Note</source>
        <translation>备注</translation>
    </message>
</context>
<context>
    <name>ingot::SampleCache</name>
    <message>
        <source>Cannot create %1: %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot write %1: %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot create the link %1: %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 already holds files; the sample cache is only written into an empty folder.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot create %1.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ingot::SettingsDialog</name>
    <message>
        <source>Follow the disk while jobs compile (watch folders, rescan after changes)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ingot Settings</source>
        <translation>Ingot 设置</translation>
    </message>
    <message>
        <source> days</source>
        <translation> 天</translation>
    </message>
    <message>
        <source>no TTL</source>
        <translation>无 TTL</translation>
    </message>
    <message>
        <source>Entries unused for longer are pruned; entries used within this window are always kept, even over the size limit. 0: no TTL (size limit alone, least recently used first).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> GB</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no limit</source>
        <translation>无上限</translation>
    </message>
    <message>
        <source>Prune policy (as the Neuron docs describe it)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Keep entries used within:</source>
        <translation>保留在此期间使用过的条目：</translation>
    </message>
    <message>
        <source>Cache size limit:</source>
        <translation>缓存大小上限：</translation>
    </message>
    <message>
        <source>Cache folders you added</source>
        <translation>您添加的缓存文件夹</translation>
    </message>
    <message>
        <source>Forget selected</source>
        <translation>移除所选</translation>
    </message>
    <message>
        <source>Removes the folder from this list; nothing on disk is touched.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Settings are stored in %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ingot::State</name>
    <message>
        <source>Success</source>
        <translation>成功</translation>
    </message>
    <message>
        <source>Failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>Locked</source>
        <translation>已锁定</translation>
    </message>
    <message>
        <source>Incomplete</source>
        <translation>不完整</translation>
    </message>
    <message>
        <source>Empty</source>
        <translation>空</translation>
    </message>
    <message>
        <source>Unknown</source>
        <translation>未知</translation>
    </message>
</context>
<context>
    <name>ingot::VersionPickerDialog</name>
    <message>
        <source>Keep which compiler versions?</source>
        <translation>保留哪些编译器版本？</translation>
    </message>
    <message>
        <source>Entries of the versions you leave unchecked are previewed for removal next. Locked entries and files the compiler does not write always stay.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%1 — %n entries, %2</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>Preview removal…</source>
        <translation>预览删除…</translation>
    </message>
</context>
<context>
    <name>ingot::units</name>
    <message>
        <source>just now</source>
        <translation>刚刚</translation>
    </message>
    <message numerus="yes">
        <source>%n min ago</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n h ago</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n days ago</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <source>Neuron compile caches, Hub caches, training jobs and checkpoints.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open this cache folder.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open the generated sample cache.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
</TS>
