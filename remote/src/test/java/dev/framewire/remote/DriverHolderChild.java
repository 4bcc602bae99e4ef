package dev.framewire.remote;

/**
 * A JVM of {@link DriverDirectoriesTest}'s own: starts the embedded driver, prints {@code DIR path}
 * (its owner-only directory), then holds it until killed or its standard input ends.
 */
public final class DriverHolderChild
{
    private DriverHolderChild()
    {
    }

    /**
     * @param args none.
     */
    public static void main(final String[] args) throws Exception
    {
        final RemoteDriver driver = RemoteDriver.acquire("", "SHARED", "holder");
        System.out.println("DIR " + new java.io.File(driver.directory()).getParent());
        System.out.flush();
        while (System.in.read() >= 0)
        {
            // held until killed (the test's SIGKILL) or the parent goes
        }
        driver.release();
    }
}
